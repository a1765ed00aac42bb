import Foundation
import Testing
import TestSupport

/// ps-parts as a user runs it: the built executable, real pipes, hand-written event records in the
/// format ps-ndjson(5) fixes (ps-sse writes them).
@Suite struct PsPartsTests {
    static func event(_ data: String, _ name: String = "message") -> String {
        #"{"event":"\#(name)","id":"","data":\#(data)}"#
    }
    static let done = #"{"event":"message","id":"","data":"[DONE]","done":true}"#

    static let toolStream = [
        Self.event(#"{"type":"start","messageId":"msg-123"}"#),
        Self.event(#"{"type":"start-step"}"#),
        Self.event(#"{"type":"tool-input-start","toolCallId":"tc0","toolName":"read_page"}"#),
        Self.event(#"{"type":"tool-input-delta","toolCallId":"tc0","inputTextDelta":"{\"pageId\":\"x"}"#),
        Self.event(#"{"type":"tool-input-delta","toolCallId":"tc0","inputTextDelta":"yz\"}"}"#),
        Self.event(#"{"type":"tool-input-available","toolCallId":"tc0","toolName":"read_page","input":{"pageId":"xyz"}}"#),
        Self.event(#"{"type":"tool-output-available","toolCallId":"tc0","output":"page text"}"#),
        Self.event(#"{"type":"finish-step"}"#),
        Self.event(#"{"type":"finish"}"#),
        done,
    ]
    static let finalToolMessage = #"{"id":"msg-123","role":"assistant","parts":[{"type":"step-start"},{"type":"tool-read_page","toolCallId":"tc0","state":"output-available","input":{"pageId":"xyz"},"output":"page text"}]}"#

    static func input(_ lines: [String]) -> Data { Data((lines.joined(separator: "\n") + "\n").utf8) }

    @Test func writesPartRecordsAsTheMessageGrows() throws {
        let result = try Run.command("ps-parts", stdin: Self.input(Self.toolStream))
        #expect(result.status == 0)
        #expect(result.stderrText == "")
        #expect(result.stdoutLines == [
            #"{"type":"message-start","messageId":"msg-123","role":"assistant"}"#,
            #"{"type":"part-start","index":0,"part":{"type":"step-start"}}"#,
            #"{"type":"part-start","index":1,"part":{"type":"tool-read_page","toolCallId":"tc0","state":"input-streaming"}}"#,
            #"{"type":"part-update","index":1,"part":{"type":"tool-read_page","toolCallId":"tc0","state":"input-streaming","input":{"pageId":"x"}}}"#,
            #"{"type":"part-update","index":1,"part":{"type":"tool-read_page","toolCallId":"tc0","state":"input-streaming","input":{"pageId":"xyz"}}}"#,
            #"{"type":"part-update","index":1,"part":{"type":"tool-read_page","toolCallId":"tc0","state":"input-available","input":{"pageId":"xyz"}}}"#,
            #"{"type":"part-update","index":1,"part":{"type":"tool-read_page","toolCallId":"tc0","state":"output-available","input":{"pageId":"xyz"},"output":"page text"}}"#,
            #"{"type":"message-end","message":\#(Self.finalToolMessage),"status":"complete"}"#,
        ])
    }

    @Test func finalWritesOneUIMessage() throws {
        let result = try Run.command("ps-parts", ["--final"], stdin: Self.input(Self.toolStream))
        #expect(result.status == 0)
        #expect(result.stdoutLines == [Self.finalToolMessage])
    }

    @Test func deletionRecordsOfAFollowArePassedOver() throws {
        let lines = [#"{"id":"u1","role":"user","parts":[{"type":"text","text":"Hi"}]}"#,
                     #"{"id":"u1","deleted":true,"conversationId":"c1"}"#]
        let result = try Run.command("ps-parts", ["--final"], stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutLines.count == 1)
        // Anything else without a role or type is still refused.
        let odd = try Run.command("ps-parts", [], stdin: Data(#"{"id":"u1","deleted":"yes"}"#.utf8 + [0x0A]))
        #expect(odd.status == 3)
    }

    @Test func readsAFileArgument() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ps-parts-\(getpid()).ndjson")
        try Self.input(Self.toolStream).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let result = try Run.command("ps-parts", ["--final", url.path])
        #expect(result.stdoutLines == [Self.finalToolMessage])
        let missing = try Run.command("ps-parts", ["/nonexistent/stream.ndjson"])
        #expect(missing.status == 1)
        #expect(missing.stderrText.contains("cannot open /nonexistent/stream.ndjson"))
    }

    @Test func aStreamWithoutAnEndIsIncomplete() throws {
        let result = try Run.command("ps-parts", ["--final"], stdin: Self.input(Array(Self.toolStream.prefix(4))))
        #expect(result.status == 10)
        #expect(result.stdoutLines == [#"{"id":"msg-123","role":"assistant","parts":[{"type":"step-start"},{"type":"tool-read_page","toolCallId":"tc0","state":"input-streaming","input":{"pageId":"x"}}],"incomplete":{"reason":"no-finish","detail":"the stream ended without finish or [DONE]"}}"#])
        #expect(result.stderrText == "ps-parts: stdin: line 4: the stream ended without finish or [DONE]; the message is incomplete\n")
    }

    @Test func doneWithoutFinishIsIncomplete() throws {
        // A reply the server stopped (aborted, taken over by another tab) still closes with
        // [DONE]; without a finish chunk it is not whole.
        let result = try Run.command("ps-parts", ["--final"], stdin: Self.input([
            Self.event(#"{"type":"start","messageId":"m1"}"#),
            Self.event(#"{"type":"text-start","id":"t"}"#),
            Self.event(#"{"type":"text-delta","id":"t","delta":"half an ans"}"#),
            Self.event(#""[DONE]""#),
        ]))
        #expect(result.status == 10)
        #expect(result.stdoutLines == [#"{"id":"m1","role":"assistant","parts":[{"type":"text","text":"half an ans","state":"streaming"}],"incomplete":{"reason":"no-finish","detail":"the stream closed with [DONE] but no finish: the server stopped the reply before its end"}}"#])
        #expect(result.stderrText.contains("line 4: the stream closed with [DONE] but no finish"))
    }

    @Test func anErrorChunkIsReportedAndTheMessageKept() throws {
        let result = try Run.command("ps-parts", stdin: Self.input([
            Self.event(#"{"type":"text-start","id":"t"}"#), Self.event(#"{"type":"text-delta","id":"t","delta":"Half"}"#),
            Self.event(#"{"type":"error","errorText":"Rate limit exceeded"}"#), Self.done,
        ]))
        #expect(result.status == 10)
        #expect(result.stdoutLines.suffix(2) == [
            #"{"type":"stream-error","errorText":"Rate limit exceeded"}"#,
            #"{"type":"message-end","message":{"id":"","role":"assistant","parts":[{"type":"text","text":"Half","state":"streaming"}]},"status":"incomplete","reason":"error","detail":"Rate limit exceeded"}"#,
        ])
        #expect(result.stderrText == "ps-parts: stdin: line 3: the stream reported an error: Rate limit exceeded\n")
    }

    @Test func anAbortIsIncomplete() throws {
        let result = try Run.command("ps-parts", ["--final"], stdin: Self.input([
            Self.event(#"{"type":"start","messageId":"m"}"#), Self.event(#"{"type":"abort","reason":"stopped by user"}"#),
            Self.event(#"{"type":"finish"}"#), Self.done,
        ]))
        #expect(result.status == 10)
        #expect(result.stdoutLines == [#"{"id":"m","role":"assistant","parts":[],"incomplete":{"reason":"abort","detail":"stopped by user"}}"#])
        #expect(result.stderrText.contains("line 2: the stream was aborted: stopped by user"))
    }

    @Test func aLineThatIsNotJSONStopsButKeepsWhatCameBefore() throws {
        let result = try Run.command("ps-parts", stdin: Self.input([
            Self.event(#"{"type":"text-start","id":"t"}"#), Self.event(#"{"type":"text-delta","id":"t","delta":"Kept"}"#),
            #"{"event":"message","id":"","data":{"type":"#, Self.event(#"{"type":"text-delta","id":"t","delta":"lost"}"#),
        ]))
        #expect(result.status == 3)
        #expect(result.stdoutLines.count == 4)
        #expect(result.stdoutLines[2] == #"{"type":"part-delta","index":0,"delta":"Kept"}"#)
        #expect(result.stdoutLines[3].hasPrefix(#"{"type":"message-end","message":{"id":"","role":"assistant","parts":[{"type":"text","text":"Kept","state":"streaming"}]},"status":"incomplete","reason":"malformed","detail":"line 3: not JSON"#))
        #expect(result.stderrText.hasPrefix("ps-parts: stdin: line 3: not JSON"))
        #expect(result.stderrText.split(separator: "\n").count == 1)
    }

    @Test func aDeltaForAPartNeverStartedIsMalformed() throws {
        let result = try Run.command("ps-parts", ["--final"], stdin: Self.input([
            Self.event(#"{"type":"start","messageId":"m"}"#), Self.event(#"{"type":"text-delta","id":"ghost","delta":"x"}"#),
        ]))
        #expect(result.status == 3)
        #expect(result.stderrText == "ps-parts: stdin: line 2: text-delta for text part \"ghost\", which is not open (no text-start)\n")
        #expect(result.stdoutLines == [#"{"id":"m","role":"assistant","parts":[],"incomplete":{"reason":"malformed","detail":"line 2: text-delta for text part \"ghost\", which is not open (no text-start)"}}"#])
    }

    @Test func rawStreamsGetAHint() throws {
        let sse = try Run.command("ps-parts", stdin: Data("data: {\"type\":\"start\"}\n\n".utf8))
        #expect(sse.status == 3)
        #expect(sse.stderrText.contains("line 1") && sse.stderrText.contains("pipe it through ps-sse first"))
        let v4 = try Run.command("ps-parts", stdin: Data("0:\"Hello\"\n".utf8))
        #expect(v4.status == 3)
        #expect(v4.stderrText.contains("v4 data stream"))
    }

    @Test func normalisesTheExampleHistory() throws {
        let history = try Data(contentsOf: Executables.packageRoot.appendingPathComponent("examples/history.ndjson"))
        for mode in [[], ["--final"]] {
            let result = try Run.command("ps-parts", mode, stdin: history)
            #expect(result.status == 0)
            #expect(result.stdoutLines.count == 5)
            #expect(result.stdoutLines[1] == #"{"id":"msg_a1","role":"assistant","parts":[{"type":"text","text":"Let me read the checklist."},{"type":"tool-read_page","toolCallId":"call_Qm3vR8","toolName":"read_page","input":{"pageId":"pg_launch_checklist"},"state":"output-available","output":{"title":"Launch checklist"}},{"type":"text","text":"Three items are still open: onboarding copy, demo video, beta invites."}],"createdAt":"2025-11-21T09:14:09.540Z"}"#)
            #expect(result.stdoutLines[4] == #"{"id":"b9e1c2d4-lucid","role":"assistant","parts":[{"type":"text","text":"Hi! How can I help you today?"}],"createdAt":"2024-01-15T10:30:01Z"}"#)
        }
    }

    @Test func survivesHostileInput() throws {
        var junk = Data()
        for line in ["[]", "null", "\"str\"", "{}", #"{"event":1}"#, Self.event("[1,2]"), Self.event(#"{"type":7}"#), "\u{FF}\u{FE}"] {
            let result = try Run.command("ps-parts", stdin: Data((line + "\n").utf8))
            #expect(result.status == 3, "\(line)")
            #expect(result.stderrText.hasPrefix("ps-parts: stdin: line 1: "), "\(line)")
            junk.append(Data((line + "\n").utf8))
        }
        junk.append(Data([0xC3, 0x28, 0x0A, 0x00, 0x0A]))
        let result = try Run.command("ps-parts", stdin: junk)
        #expect(result.status == 3)
    }

    @Test func writesEachRecordAtOnce() throws {
        // Feed one record, then wait for its output before sending more: output held in a buffer
        // would never arrive and the read would hang (bounded by the timeout below).
        let child = try ChildProcess.spawn(
            Executables.url("ps-parts").path, [], environment: Run.environment(), stdin: .pipe)
        child.write(Data((Self.event(#"{"type":"start","messageId":"live"}"#) + "\n").utf8))
        let received = child.readStdoutLine(timeout: 60)
        child.closeStdin()
        child.wait()
        #expect(String(decoding: received, as: UTF8.self) == #"{"type":"message-start","messageId":"live","role":"assistant"}"# + "\n")
    }

    @Test func endsQuietlyWhenTheReaderGoesAway() throws {
        var lines = [Self.event(#"{"type":"text-start","id":"t"}"#)]
        lines += Array(repeating: Self.event(#"{"type":"text-delta","id":"t","delta":"more text "}"#), count: 20000)
        let result = try Run.shell("ps-parts | head -n 1", stdin: Self.input(lines))
        #expect(result.stdoutLines == [#"{"type":"message-start","messageId":"","role":"assistant"}"#])
        #expect(result.stderrText == "")
    }

    @Test func refusesUsageErrors() throws {
        let result = try Run.command("ps-parts", ["--bogus"], stdin: Data())
        #expect(result.status == 2)
        let help = try Run.command("ps-parts", ["--help"])
        #expect(help.status == 0)
        #expect(help.stdoutText.contains("man ps-parts") && help.stdoutText.contains("--final"))
    }
}
