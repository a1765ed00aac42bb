import PSCore
import Testing
import TestSupport
@testable import PSRender

/// Fenced code coloured by its language (GNU source-highlight): which words get which colour, that
/// the text stays the code's text, and that a block still being written has its final colours.
@Suite struct SyntaxHighlightTests {
    typealias Kind = SyntaxHighlighter.Kind

    /// The highlighted pieces of `code`: their text and kind.
    static func pieces(_ code: String, _ language: String) -> [(String, Kind)]? {
        guard let spans = SyntaxHighlighter.spans(code, language: language) else { return nil }
        let bytes = Array(code.utf8)
        return spans.map { (String(decoding: bytes[$0.offset..<$0.offset + $0.length], as: UTF8.self), $0.kind) }
    }

    static func contains(_ pieces: [(String, Kind)]?, _ text: String, _ kind: Kind) -> Bool {
        pieces?.contains { $0.0 == text && $0.1 == kind } ?? false
    }

    @Test func python() throws {
        let code = "import os\ndef greet(name):\n    return \"hi \" + name  # done\nx = 42\n"
        let pieces = try #require(Self.pieces(code, "python"))
        #expect(Self.contains(pieces, "import", .preprocessor))
        #expect(Self.contains(pieces, "def", .keyword))
        #expect(Self.contains(pieces, "return", .keyword))
        #expect(Self.contains(pieces, "greet", .function))
        #expect(Self.contains(pieces, "\"hi \"", .string))
        #expect(Self.contains(pieces, "42", .number))
        #expect(pieces.contains { $0.1 == .comment && $0.0.contains("done") })
        // Names and operators stay plain.
        #expect(!pieces.contains { $0.0 == "name" || $0.0 == "=" })
        // The short name and the case of the name do not matter.
        #expect(Self.pieces(code, "py")?.count == pieces.count)
        #expect(Self.pieces(code, "Python")?.count == pieces.count)
    }

    /// A line read before (its spans are reused) has the colours of where it is now: inside a
    /// comment or a string that began on an earlier line, or not, and at its own offset.
    @Test func aRepeatedLineHasTheColoursOfItsPlace() throws {
        let line = "func run() { return 42 }"
        let code = [line, line, "/* open", line, "*/ " + line, "s := `raw", line, "`", line].joined(separator: "\n")
        let spans = try #require(SyntaxHighlighter.spans(code, language: "go"))
        let bytes = Array(code.utf8)
        var lineStarts = [0]
        for (offset, byte) in bytes.enumerated() where byte == 0x0A { lineStarts.append(offset + 1) }
        func kinds(ofLine number: Int) -> [String] {
            let start = lineStarts[number], end = number + 1 < lineStarts.count ? lineStarts[number + 1] - 1 : bytes.count
            return spans.filter { $0.offset >= start && $0.offset < end }.map {
                "\($0.kind):" + String(decoding: bytes[$0.offset..<$0.offset + $0.length], as: UTF8.self)
            }
        }
        let plain = kinds(ofLine: 0)
        #expect(plain.contains("keyword:func") && plain.contains("keyword:return") && plain.contains("number:42"), "\(plain)")
        #expect(kinds(ofLine: 1) == plain)
        #expect(kinds(ofLine: 3).allSatisfy { $0.hasPrefix("comment:") } && !kinds(ofLine: 3).isEmpty)
        #expect(kinds(ofLine: 6).allSatisfy { $0.hasPrefix("string:") } && !kinds(ofLine: 6).isEmpty)
        #expect(kinds(ofLine: 8) == plain)
        // The same as each line's colours read alone, from the start.
        for number in [0, 1, 8] {
            #expect(Self.pieces(line, "go")?.map { "\($0.1):\($0.0)" } == kinds(ofLine: number))
        }
    }

    @Test func json() throws {
        let pieces = try #require(Self.pieces(#"{"name": "x", "n": 12, "ok": true}"#, "json"))
        #expect(Self.contains(pieces, "name", .type))
        #expect(Self.contains(pieces, "x", .string))
        #expect(Self.contains(pieces, "12", .number))
        #expect(Self.contains(pieces, "true", .keyword))
    }

    @Test func shell() throws {
        let code = "if [ -f \"$HOME/x\" ]; then\n  echo done # ok\nfi\n"
        for language in ["sh", "bash", "shell"] {
            let pieces = try #require(Self.pieces(code, language), "\(language)")
            #expect(Self.contains(pieces, "if", .keyword))
            #expect(Self.contains(pieces, "then", .keyword))
            #expect(Self.contains(pieces, "fi", .keyword))
            #expect(pieces.contains { $0.1 == .string && $0.0.contains("$HOME") })
            #expect(pieces.contains { $0.1 == .comment && $0.0.contains("ok") })
        }
    }

    /// Names that source-highlight's lang.map lacks: aliases to the definition that fits.
    @Test func aliases() throws {
        #expect(Self.contains(Self.pieces("fn main() { let x = 1; }\n", "rust"), "fn", .keyword))
        #expect(Self.contains(Self.pieces("const x: number = 1;\n", "typescript"), "const", .keyword))
    }

    /// Swift's keywords (one pattern grouped by first letter, CodeHighlighter.cpp): each one whole,
    /// and no word that only begins or ends like one.
    @Test func swiftKeywordsAreWholeWords() throws {
        let keywords = """
            associatedtype class deinit enum extension fileprivate func import init inout internal
            let open operator private protocol public rethrows static struct subscript typealias var
            break case catch continue default defer do else fallthrough for guard if in repeat return
            throw switch where while as await async false is nil self Self super throws true try
            actor any convenience final indirect lazy mutating nonisolated override required some unowned weak
            """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        #expect(keywords.count == 67)
        let pieces = try #require(Self.pieces(keywords.joined(separator: " ") + "\n", "swift"))
        #expect(pieces.filter { $0.1 == .keyword }.map(\.0) == keywords)
        let near = "ins inouts selfish xif iff letter casey do_ a_s trues _in in2 wea weakly"
        let others = try #require(Self.pieces(near + "\n", "swift"))
        #expect(!others.contains { $0.1 == .keyword }, "\(others.filter { $0.1 == .keyword })")
    }

    /// Swift, which source-highlight has no definition for: ps-tools' own (CodeHighlighter.cpp).
    @Test func swift() throws {
        let code = """
            @MainActor final class Cache: Sendable {
                /* a /* nested */ comment */ let limit = 0x1F + 1_000
                guard let value = lookup(key) else { return nil }
                let text = \"\"\"
                  two \\(lines)
                  \"\"\"
            }
            #if DEBUG
            """ + "\n"
        let pieces = try #require(Self.pieces(code, "swift"))
        for keyword in ["final", "class", "let", "guard", "else", "return", "nil"] {
            #expect(Self.contains(pieces, keyword, .keyword), "\(keyword)")
        }
        #expect(Self.contains(pieces, "Cache", .type))
        #expect(Self.contains(pieces, "Sendable", .type))
        #expect(Self.contains(pieces, "@MainActor", .preprocessor))
        #expect(Self.contains(pieces, "#if", .preprocessor))
        // Comments nest: what follows the inner */ is still comment.
        #expect(Self.contains(pieces, " comment ", .comment))
        #expect(Self.contains(pieces, "0x1F", .number))
        #expect(Self.contains(pieces, "1_000", .number))
        #expect(Self.contains(pieces, "lookup", .function))
        // A multi-line string: its lines between the quotes are string too.
        #expect(Self.contains(pieces, "lines)", .string))
        // Operators and brackets are not coloured.
        #expect(!pieces.contains { piece in piece.0.contains { "{}()=+:".contains($0) } && piece.1 != .comment && piece.1 != .string })
        // Its own name, not a file of the library's data folder.
        #expect(SyntaxHighlighter.spans("let x = 1\n", language: "Swift") != nil)
    }

    @Test func unknownLanguagesAreNotHighlighted() {
        for language in ["", "nosuchlanguage", "text", "txt", "python\u{1B}[31m", "../../etc/passwd", "python.lang"] {
            #expect(SyntaxHighlighter.spans("def f(): pass\n", language: language) == nil, "\(language.debugDescription)")
        }
    }

    /// State carried across lines (a docstring, a block comment) gives each line the colours it
    /// has in the whole text, whatever prefix was highlighted before.
    @Test func everyPrefixHasTheColoursOfTheWhole() throws {
        let samples = [
            ("python", "def f():\n    \"\"\"A docstring\n    over lines\"\"\"\n    return 'x'  # c\n\nclass A:\n    pass\n"),
            ("c", "/* a comment\n   over lines */\nint main(void) {\n  return 0; // done\n}\n"),
            ("sh", "cat <<EOF\nnot code\nEOF\nif true; then echo \"a\nb\"; fi\n"),
            ("swift", "/* a /* nested\n */ still */ let s = \"\"\"\n  \\(x) \"\n  \"\"\"\nfunc f() {}\n"),
        ]
        for (language, code) in samples {
            // A text that shares nothing with the code: the next run starts afresh.
            _ = SyntaxHighlighter.spans("\u{1}", language: language)
            let whole = try #require(SyntaxHighlighter.spans(code, language: language))
            let bytes = Array(code.utf8)
            for cut in 0...bytes.count {
                let prefix = String(decoding: bytes[..<cut], as: UTF8.self)
                let spans = try #require(SyntaxHighlighter.spans(prefix, language: language))
                // Lines with their newline: their spans are final.
                let complete = bytes[..<cut].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
                #expect(spans.filter { $0.offset < complete } == whole.filter { $0.offset < complete },
                        "\(language) cut at \(cut)")
            }
            // And the whole again, after all the prefixes: the same.
            #expect(SyntaxHighlighter.spans(code, language: language) == whole)
        }
    }

    /// Lines of a block are the code's lines: the same characters as in plain, made terminal-safe
    /// the same way, only styles added.
    @Test func theTextIsTheCode() throws {
        let lines = ["s = \"\u{1B}[2J\u{1B}]52;c;aGk=\u{07}\"  # évian 日本", "\tif x:\u{9B}31m", "", "print('naïve', 1)"]
        var literal = lines.joined(separator: "\n") + "\n"
        let ranges = literal.withUTF8 { LiteralLines.ranges($0) }
        let styled = try #require(SyntaxHighlighter.lines(literal, ranges, language: "python", base: .plain))
        #expect(styled.map(\.plainText) == lines.map(\.withoutControlCharacters))
        #expect(styled.count == lines.count)
        #expect(styled[2].isEmpty)
        for line in styled {
            let encoded = LineEncoder.encode(line, ansi: true)
            // The only escape sequences are the styles' own: ESC [ digits and semicolons m.
            let scalars = Array(encoded.unicodeScalars)
            for (index, scalar) in scalars.enumerated() where scalar == "\u{1B}" {
                let rest = scalars[(index + 1)...].prefix { $0 != "m" }
                #expect(rest.first == "[" && rest.dropFirst().allSatisfy { ("0"..."9").contains($0) || $0 == ";" },
                        "\(encoded.debugDescription)")
            }
            #expect(!encoded.unicodeScalars.contains { TerminalSafeText.isUnsafe($0) && $0 != "\u{1B}" })
        }
        #expect(styled[0].contains { $0.style.color == .green })
    }

    /// A line longer than 512 bytes is left plain (its cost grows with its length squared), and
    /// the next line is highlighted afresh.
    @Test func longLinesArePlain() throws {
        let long = "x = [" + String(repeating: "1, ", count: 200) + "2]"
        let spans = try #require(SyntaxHighlighter.spans(long + "\ndef f(): pass\n", language: "python"))
        #expect(spans.allSatisfy { $0.offset > long.utf8.count })
        #expect(spans.contains { $0.kind == .keyword })
    }

    /// Past the work budget, the rest of the block is plain: hostile code costs a bounded time.
    @Test func workIsBounded() throws {
        let line = "{\"" + String(repeating: "a\\\"", count: 150) + "\": 1}"
        let code = Array(repeating: line, count: 400).joined(separator: "\n")
        let spans = try #require(SyntaxHighlighter.spans(code, language: "json"))
        let lineLength = line.utf8.count + 1
        let highlightedLines = Set(spans.map { $0.offset / lineLength })
        #expect(!highlightedLines.isEmpty)
        // 8 Mi of length squared: 8 * 1024 * 1024 / 456^2 is 40 lines.
        #expect(highlightedLines.count == 8 * 1024 * 1024 / (line.utf8.count * line.utf8.count))
        #expect(highlightedLines.max()! == highlightedLines.count - 1)
        // Short lines count as 32 bytes: at most 8,192 of them, whatever the block's length.
        let short = Array(repeating: "x = 1", count: 20_000).joined(separator: "\n")
        let shortSpans = try #require(SyntaxHighlighter.spans(short, language: "python"))
        #expect(Set(shortSpans.map { $0.offset / 6 }).count == 8 * 1024 * 1024 / (32 * 32))
    }

    func render(_ text: String, ansi: Bool) -> [StyledLine] {
        MarkdownRenderer(ansi: ansi, width: 60).render(text).lines
    }

    @Test func theRendererColoursOnlyInAnsi() throws {
        let text = "```python\ndef f():\n    return \"x\"\n```\n"
        let ansi = render(text, ansi: true)
        #expect(ansi[1].first == Span("def", TextStyle(color: .magenta)))
        #expect(ansi[2].contains(Span("\"x\"", TextStyle(color: .green))))
        let plain = render(text, ansi: false)
        #expect(plain.allSatisfy { $0.allSatisfy { $0.style == .plain } })
        #expect(plain.map(\.plainText) == ansi.map(\.plainText))
        // Unknown language, or none: one yellow run per line, as before.
        for fence in ["```nosuch\n", "```\n"] {
            let lines = render(fence + "def f():\n```\n", ansi: true)
            #expect(lines[1] == [Span("def f():", TextStyle(color: .yellow))])
        }
    }

    /// Streamed in random pieces (each complete line written as soon as it is final), the output
    /// is byte for byte the whole render's, colours included.
    @Test func streamedCodeHasTheColoursOfTheWhole() throws {
        let document = """
            Some code:

            ```python
            def f():
                \"\"\"A docstring
                over lines\"\"\"
                return 'x'  # c
            ```

            And C:

            ```c
            /* open
               comment */
            int main(void) { return 0; }
            ```

            ```json
            {"a": [1, 2, "three"], "b": null}
            ```
            """
        let message = PartRecords.message([PartRecords.text(document)])
        let options = RenderOptions(format: .ansi, width: 50)
        let whole = try RenderHarness.render([message], options)
        #expect(whole.contains("\u{1B}[35mdef\u{1B}[0m"))
        var generator = SplitMix(seed: 17)
        let count = document.unicodeScalars.count
        for _ in 0..<20 {
            let cuts = (0..<Int(generator.next() % 40)).map { _ in Int(generator.next() % UInt64(count + 1)) }
            let streamed = try RenderHarness.render(PartRecords.streamed(message) { PartRecords.split($0, at: cuts) }, options)
            #expect(streamed == whole, "cuts \(cuts.sorted())")
        }
        let scalars = try RenderHarness.render(PartRecords.streamed(message) { $0.unicodeScalars.map { String($0) } }, options)
        #expect(scalars == whole)
    }
}
