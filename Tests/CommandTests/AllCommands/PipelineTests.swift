import Foundation
import Testing
import TestSupport

/// The recorded streams in examples/ through the real filters, as a user pipes them.
@Suite struct PipelineTests {
    static let streams = ["text.sse", "reasoning.sse", "tools.sse", "table.sse", "code.sse", "v4-data-stream.txt", "gemini.sse"]

    static func example(_ name: String) -> String {
        Executables.packageRoot.appendingPathComponent("examples/\(name)").path
    }

    @Test(arguments: streams) func everyExampleRebuildsOneCompleteMessage(_ name: String) throws {
        let result = try Run.shell("set -o pipefail; ps-sse < '\(Self.example(name))' | ps-parts --final")
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stderrText.isEmpty)
        let lines = result.stdoutLines
        #expect(lines.count == 1)
        let message = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(message["role"] as? String == "assistant")
        #expect(message["incomplete"] == nil)
        #expect(!((message["parts"] as? [Any]) ?? []).isEmpty)
    }

    /// Rendering the part records as they stream gives the same bytes as rendering the final
    /// message, in every format, also when the stream is played with real pacing.
    @Test(arguments: streams) func streamedRenderingEqualsWholeRendering(_ name: String) throws {
        let path = Self.example(name)
        for format in ["plain", "ansi", "markdown"] {
            let render = "ps-render --format \(format) --width 72"
            let whole = try Run.shell("set -o pipefail; ps-sse < '\(path)' | ps-parts --final | \(render)")
            let streamed = try Run.shell("set -o pipefail; ps-sse < '\(path)' | ps-parts | \(render)")
            #expect(whole.status == 0 && streamed.status == 0, "\(whole.stderrText)\(streamed.stderrText)")
            #expect(!whole.stdout.isEmpty)
            #expect(streamed.stdout == whole.stdout, "\(name) as \(format)")
        }
        let played = try Run.shell(
            "set -o pipefail; '\(Self.example("play"))' --delay-ms 1 '\(path)' | ps-sse | ps-parts | ps-render --format plain --width 72")
        let whole = try Run.shell("ps-sse < '\(path)' | ps-parts --final | ps-render --format plain --width 72")
        #expect(played.status == 0, "\(played.stderrText)")
        #expect(played.stdout == whole.stdout)
    }

    @Test func aStreamCutShortIsKeptAndReportedAtEveryStage() throws {
        let result = try Run.shell(
            "head -n 20 '\(Self.example("tools.sse"))' | ps-sse | ps-parts | ps-render --format plain; echo \"${PIPESTATUS[*]}\" >&2")
        let statuses = result.stderrText.split(separator: "\n").last.map(String.init)
        #expect(statuses == "0 0 10 10")
        #expect(result.stdoutText.contains("incomplete"))
        #expect(result.stdoutText.contains("read_page"))
    }

    @Test func historyLinesRenderAsAConversation() throws {
        let result = try Run.shell(
            "set -o pipefail; ps-parts < '\(Self.example("history.ndjson"))' | ps-render --format markdown")
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.contains("## User"))
        #expect(result.stdoutText.contains("## Assistant"))
    }

    /// Numbers no 64-bit integer or double holds are valid JSON: they pass through ps-sse and
    /// ps-parts byte for byte, in tool input, tool output and data parts.
    @Test func numbersBeyondSixtyFourBitsPassThroughExactly() throws {
        let big = "123456789012345678901234567890", huge = "1e400", negative = "-98765432109876543210", tiny = "2.5E-999"
        let chunks = [
            #"{"type":"start","messageId":"m"}"#, #"{"type":"start-step"}"#,
            #"{"type":"tool-input-available","toolCallId":"c","toolName":"calc","input":{"n":\#(big),"x":[\#(huge),1.5]}}"#,
            #"{"type":"tool-output-available","toolCallId":"c","output":{"sum":\#(negative),"small":\#(tiny)}}"#,
            #"{"type":"data-stats","data":{"count":\#(big)}}"#,
            #"{"type":"finish-step"}"#, #"{"type":"finish"}"#, "[DONE]",
        ]
        let sse = chunks.map { "data: \($0)\n\n" }.joined()
        let result = try Run.shell("set -o pipefail; ps-sse | ps-parts --final", stdin: Data(sse.utf8))
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stderrText.isEmpty)
        #expect(result.stdoutLines == [
            #"{"id":"m","role":"assistant","parts":[{"type":"step-start"},"#
                + #"{"type":"tool-calc","toolCallId":"c","state":"output-available","input":{"n":\#(big),"x":[\#(huge),1.5]},"#
                + #""output":{"sum":\#(negative),"small":\#(tiny)}},{"type":"data-stats","data":{"count":\#(big)}}]}"#,
        ])
    }
}
