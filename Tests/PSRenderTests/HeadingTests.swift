import PSCore
import Testing
@testable import PSRender

/// Every heading level looks different from bold text, in ansi and in plain.
@Suite struct HeadingTests {
    static let document = "# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six\n\n**Bold text**"

    func render(_ text: String, format: RenderFormat) throws -> String {
        try RenderHarness.render([PartRecords.message([PartRecords.text(text)])], RenderOptions(format: format, width: 40))
    }

    @Test func ansiLevels() throws {
        let out = try render(Self.document, format: .ansi)
        #expect(out.contains("\u{1B}[1;35mOne\u{1B}[0m\n\u{1B}[1;35m═══\u{1B}[0m\n"))
        #expect(out.contains("\u{1B}[1;36mTwo\u{1B}[0m\n\u{1B}[1;36m───\u{1B}[0m\n"))
        #expect(out.contains("\u{1B}[2m### \u{1B}[0m\u{1B}[1mThree\u{1B}[0m\n"))
        #expect(out.contains("\u{1B}[2m#### \u{1B}[0m\u{1B}[1;3mFour\u{1B}[0m\n"))
        #expect(out.contains("\u{1B}[2m##### \u{1B}[0m\u{1B}[1;3mFive\u{1B}[0m\n"))
        #expect(out.contains("\u{1B}[2m###### \u{1B}[0m\u{1B}[1;3mSix\u{1B}[0m\n"))
        #expect(out.contains("\n\u{1B}[1mBold text\u{1B}[0m\n"))
    }

    @Test func plainKeepsRulesAndMarkers() throws {
        let out = try render(Self.document, format: .plain)
        #expect(out.hasSuffix("""
            One
            ═══

            Two
            ───

            ### Three

            #### Four

            ##### Five

            ###### Six

            Bold text

            """))
    }

    /// In reasoning (dimmed and italic) a heading stays dimmed and italic.
    @Test func headingsInReasoningKeepTheBaseStyle() throws {
        let message = PartRecords.message([PartRecords.text("### Plan", type: "reasoning")])
        let out = try RenderHarness.render([message], RenderOptions(format: .ansi, width: 40))
        #expect(out.contains("\u{1B}[2;3m### \u{1B}[0m\u{1B}[1;2;3mPlan\u{1B}[0m"))
    }

    @Test func aLongHeadingWrapsAfterItsMarker() throws {
        let out = try render("### A heading long enough to wrap at forty columns wide", format: .plain)
        #expect(out.hasSuffix("### A heading long enough to wrap at\nforty columns wide\n"))
    }
}
