import Foundation
import PSCore
import Testing
@testable import PSRender

/// Rendered output compared byte for byte with files under Golden/. To accept a deliberate change,
/// run with PS_UPDATE_GOLDEN=1 and review the diff before committing it.
@Suite struct GoldenTests {
    struct Case: CustomStringConvertible, Sendable {
        let input: String
        let format: RenderFormat
        var width = 80
        var tools = ToolDetail.compact
        var reasoning = true

        var goldenName: String {
            var name = "\(input).\(format.rawValue).w\(width)"
            if tools == .full { name += ".full" }
            if !reasoning { name += ".noreasoning" }
            return name + ".txt"
        }
        var description: String { goldenName }
    }

    static let cases: [Case] = [
        Case(input: "history", format: .ansi),
        Case(input: "history", format: .plain),
        Case(input: "history", format: .markdown),
        Case(input: "history", format: .plain, width: 40),
        Case(input: "history", format: .ansi, width: 40),
        Case(input: "history", format: .plain, tools: .full, reasoning: false),
        Case(input: "history", format: .markdown, tools: .full, reasoning: false),
        Case(input: "cjk", format: .plain, width: 40),
        Case(input: "cjk", format: .ansi, width: 30),
        Case(input: "cjk", format: .markdown),
        Case(input: "incomplete", format: .plain),
        Case(input: "incomplete", format: .ansi),
        Case(input: "incomplete", format: .markdown),
    ]

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    @Test(arguments: cases)
    func matchesGolden(_ testCase: Case) throws {
        let input = try String(contentsOf: Self.folder.appendingPathComponent(testCase.input + ".ndjson"), encoding: .utf8)
        let records = try input.split(separator: "\n").map { try JSON.parse(String($0)) }
        let options = RenderOptions(format: testCase.format, width: testCase.width, tools: testCase.tools,
                                    showReasoning: testCase.reasoning)
        let rendered = try RenderHarness.render(records, options)
        let goldenURL = Self.folder.appendingPathComponent(testCase.goldenName)
        if ProcessInfo.processInfo.environment["PS_UPDATE_GOLDEN"] == "1" {
            try rendered.write(to: goldenURL, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOf: goldenURL, encoding: .utf8)
        #expect(rendered == golden)
    }
}
