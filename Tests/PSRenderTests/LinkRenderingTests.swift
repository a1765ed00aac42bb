import PSCore
import Testing
@testable import PSRender

/// Links as OSC 8 hyperlinks or with their URL printed after them, by format and `links`.
@Suite struct LinkRenderingTests {
    static let text = "[docs](https://d.example/x) and <https://a.example>"

    func render(_ parts: [JSON], format: RenderFormat, links: LinkStyle) throws -> String {
        try RenderHarness.render([PartRecords.message(parts)], RenderOptions(format: format, width: 80, links: links))
    }

    @Test func ansiInlinePrintsTheURLAfterTheText() throws {
        let out = try render([PartRecords.text(Self.text)], format: .ansi, links: .inline)
        #expect(!out.contains("\u{1B}]8;"))
        #expect(out.contains("\u{1B}[4;34mdocs\u{1B}[0m\u{1B}[2m <https://d.example/x>\u{1B}[0m"))
        // An autolink's text is its URL already.
        #expect(out.contains("\u{1B}[4;34mhttps://a.example\u{1B}[0m\n"))
    }

    @Test func ansiOsc8HidesTheURL() throws {
        let out = try render([PartRecords.text(Self.text)], format: .ansi, links: .osc8)
        #expect(out.contains("\u{1B}]8;;https://d.example/x\u{1B}\\\u{1B}[4;34mdocs\u{1B}[0m\u{1B}]8;;\u{1B}\\"))
        #expect(!out.contains("<https://d.example/x>"))
    }

    @Test(arguments: LinkStyle.allCases)
    func plainNeverHasHyperlinks(_ links: LinkStyle) throws {
        let source = PartRecords.object([("type", "source-url"), ("url", "https://s.example"), ("title", "Spec")])
        let out = try render([PartRecords.text(Self.text), source], format: .plain, links: links)
        #expect(!out.unicodeScalars.contains("\u{1B}"))
        #expect(out.contains("docs <https://d.example/x> and https://a.example\n"))
        #expect(out.contains("↗ source: Spec <https://s.example>"))
    }

    @Test func sourcesFollowTheLinkStyle() throws {
        let source = PartRecords.object([("type", "source-url"), ("url", "https://s.example"), ("title", "Spec")])
        let inline = try render([source], format: .ansi, links: .inline)
        #expect(!inline.contains("\u{1B}]8;"))
        #expect(inline.contains("<https://s.example>"))
        let osc8 = try render([source], format: .ansi, links: .osc8)
        #expect(osc8.contains("\u{1B}]8;;https://s.example\u{1B}\\"))
        #expect(!osc8.contains("<https://s.example>"))
    }

    /// The URL printed inline goes through the same sanitiser as all text; OSC 8 targets through
    /// theirs.
    @Test(arguments: LinkStyle.allCases)
    func urlsStaySanitised(_ links: LinkStyle) throws {
        let out = try render([PartRecords.text("[x](http://e.example/\u{9B}31m) <http://a/\u{1B}b>")], format: .ansi, links: links)
        #expect(!out.unicodeScalars.contains("\u{9B}"))
        #expect(!out.contains("\u{1B}b"))
    }

    /// Printing URLs changes where lines wrap; streaming still gives the bytes of the whole.
    @Test func inlineURLsStreamLikeWhole() throws {
        let options = RenderOptions(format: .ansi, width: 30, links: .inline)
        for document in Documents.all {
            let message = StreamingTests.message(document)
            let whole = try RenderHarness.render([message], options)
            let streamed = try RenderHarness.render(PartRecords.streamed(message) { $0.unicodeScalars.map { String($0) } }, options)
            #expect(streamed == whole)
            #expect(whole.contains("<https://example.com>") == document.contains("(https://example.com"))
        }
    }
}
