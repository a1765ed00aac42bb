import Foundation
import Testing
@testable import PSRender

/// The highlighter's rules remember their last search of a line (RememberingRule in
/// CSourceHighlight), which source-highlight's own rules do not: every language's spans must be
/// the ones the library's rules give, on code of every kind, this repository's own files and
/// lines made to catch a search that starts inside a word.
@Suite struct HighlightRuleMemoryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Lines where a token ends inside a word or right before one, and the constructs of many
    /// languages: comments, nested ones, strings with escapes, numbers, variables, attributes.
    static let edges = """
        #abc123 #if x1 @attr9 $var2x ${name}z %hash3 &ref4 a_b1c foo.bar(baz)qux x<y>z
        let café(日本) = "a \\"quoted\\" \\\\ string"/* a /* nested */ comment */ 0x1F 1e5 1.5e-3 0b1010 007
        SELECT count(*) FROM t WHERE name LIKE 'x%' -- comment
        begin end; BEGIN End; procedure P(var a: integer); {pascal} (* comment *)
        def f(x): return x  # comment 'q' "d" '''triple''' \"\"\"doc\"\"\"
        <tag attr="v">text</tag><!-- comment --> <?xml version="1.0"?>
        key: value # yaml
        {"json": [1, 2.5, true, null, "s\\u00e9"]}
        @@ -1,2 +1,3 @@
        -removed
        +added
        \\section{Title} $x^2$ % latex
        my $x = qr/ab+c/i; s/foo/bar/g; print "$x\\n"; # perl
        local t = {1, 2} -- lua
        \tint\tmain(void)\t{ return 0; }\tkeyworddefault default_value IfElse iffy
        """

    /// Up to `count` lines of this repository's files, starting at a different one for each language.
    static func repositoryLines(_ seed: Int, count: Int) -> String {
        let files = [
            "Sources/CSourceHighlight/CodeHighlighter.cpp", "Sources/PSRender/Text/Wrapper.swift", "bench/markdown.py",
            "scripts/test", "Makefile", "Sources/CSourceHighlightLoader/loader.c", "bench/render",
            "Sources/PSCore/JSON/JSONEscapes.swift",
        ]
        var lines: [Substring] = []
        for offset in 0..<files.count where lines.count < count {
            let file = root.appendingPathComponent(files[(seed + offset) % files.count])
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            lines += text.split(separator: "\n", omittingEmptySubsequences: false).prefix(count - lines.count)
        }
        return lines.joined(separator: "\n")
    }

    /// One name for each definition lang.map names.
    static func languages() throws -> [String] {
        let map = try String(contentsOfFile: "/usr/share/source-highlight/lang.map", encoding: .utf8)
        var seen: Set<String> = []
        var names: [String] = []
        for line in map.split(separator: "\n") {
            let sides = line.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
            guard sides.count == 2, !sides[0].isEmpty, !sides[0].hasPrefix("#"), seen.insert(sides[1]).inserted else { continue }
            names.append(sides[0])
        }
        return names + ["swift"]
    }

    static func spans(_ code: String, _ language: String, remembering: Bool) -> [SyntaxHighlighter.CodeSpan]? {
        SyntaxHighlighter.setRuleMemory(remembering)
        return SyntaxHighlighter.spans(code, language: language, finished: true, keep: false)
    }

    @Test func everyLanguageHasTheSpansOfTheLibrarysOwnRules() throws {
        defer { SyntaxHighlighter.setRuleMemory(true) }
        let languages = try Self.languages()
        #expect(languages.count > 80)
        var compared = 0
        for (index, language) in languages.enumerated() {
            let code = Self.edges + "\n" + Self.repositoryLines(index, count: 150) + "\n" + Self.edges
            let library = Self.spans(code, language, remembering: false)
            let remembered = Self.spans(code, language, remembering: true)
            #expect(library == remembered, "\(language)")
            if let library, !library.isEmpty { compared += 1 }
        }
        // The library is there and colours most of them.
        #expect(compared > 70, "\(compared) languages coloured")
    }

    /// A search that starts inside a word sees the start of its text there: \< holds where it
    /// would not with the letter before it ("#abc" then "123" in Swift: 123 is a number), though
    /// the rule's search from the line's start found nothing there.
    @Test func aSearchThatStartsInsideAWordIsTriedThere() throws {
        defer { SyntaxHighlighter.setRuleMemory(true) }
        let code = "x #abc123 y\n"
        let library = try #require(Self.spans(code, "swift", remembering: false))
        #expect(library.contains { $0.offset == 6 && $0.kind == .number }, "\(library)")
        #expect(Self.spans(code, "swift", remembering: true) == library)
    }
}
