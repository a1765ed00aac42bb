import Foundation
import Testing
import PSCore
import TestSupport

/// ps-sse run as a user runs it: the built executable, real pipes.
@Suite struct PsSseTests {
    static func run(_ input: String, _ arguments: [String] = []) throws -> ProcessResult {
        try Run.command("ps-sse", arguments, stdin: Data(input.utf8))
    }

    static func run(bytes: [UInt8], _ arguments: [String] = []) throws -> ProcessResult {
        try Run.command("ps-sse", arguments, stdin: Data(bytes))
    }

    static let uiStream = """
        data: {"type":"start","messageId":"msg-1"}

        data: {"type":"text-start","id":"0"}

        data: {"type":"text-delta","id":"0","delta":"Hello"}

        data: {"type":"text-end","id":"0"}

        data: {"type":"finish"}

        data: [DONE]


        """

    @Test func writesOneExactRecordPerEvent() throws {
        let result = try Self.run(Self.uiStream)
        #expect(result.status == 0)
        #expect(result.stderrText == "")
        #expect(result.stdoutText == """
            {"event":"message","id":"","data":{"type":"start","messageId":"msg-1"}}
            {"event":"message","id":"","data":{"type":"text-start","id":"0"}}
            {"event":"message","id":"","data":{"type":"text-delta","id":"0","delta":"Hello"}}
            {"event":"message","id":"","data":{"type":"text-end","id":"0"}}
            {"event":"message","id":"","data":{"type":"finish"}}
            {"event":"message","id":"","data":"[DONE]","done":true}

            """)
    }

    @Test func decodesJSONDataAndKeepsOtherDataAsStrings() throws {
        let input = "event: token\nid: 42\ndata: {\"text\":\"a\\\"b\"}\n\n"
            + "data: plain text \"quoted\"\n\n"
            + "data: 12\n\n"
            + "data:  [1, 2,\ndata: 3]\n\n"
            + "data: {\"broken\":\n\n"
            + "data:\n\n"
            + "data: \"line\\nbreak\"\n\n"
        let result = try Self.run(input)
        #expect(result.status == 0)
        #expect(result.stdoutLines == [
            #"{"event":"token","id":"42","data":{"text":"a\"b"}}"#,
            #"{"event":"message","id":"42","data":"plain text \"quoted\""}"#,
            #"{"event":"message","id":"42","data":12}"#,
            #"{"event":"message","id":"42","data":[1,2,3]}"#,
            #"{"event":"message","id":"42","data":"{\"broken\":"}"#,
            #"{"event":"message","id":"42","data":""}"#,
            #"{"event":"message","id":"42","data":"line\nbreak"}"#,
        ])
    }

    @Test func rawKeepsTheExactString() throws {
        let result = try Self.run("data: {\"a\": 1}\n\ndata: x\ndata: y\n\ndata: [DONE]\n\n", ["--raw"])
        #expect(result.status == 0)
        #expect(result.stdoutLines == [
            #"{"event":"message","id":"","data":"{\"a\": 1}"}"#,
            #"{"event":"message","id":"","data":"x\ny"}"#,
            #"{"event":"message","id":"","data":"[DONE]","done":true}"#,
        ])
    }

    @Test func retryAppearsOnlyOnTheEventWhoseBlockSetIt() throws {
        let result = try Self.run("retry: 3000\ndata: a\n\ndata: b\n\nretry: x\ndata: c\n\n")
        #expect(result.stdoutLines == [
            #"{"event":"message","id":"","data":"a","retry":3000}"#,
            #"{"event":"message","id":"","data":"b"}"#,
            #"{"event":"message","id":"","data":"c"}"#,
        ])
    }

    @Test func stripsTheBOMAndAcceptsCRLFAndCR() throws {
        let input: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("data: {\"a\":1}\r\n\r\n: c\rdata: b\r\r".utf8)
        let result = try Self.run(bytes: input)
        #expect(result.status == 0)
        #expect(result.stdoutLines == [
            #"{"event":"message","id":"","data":{"a":1}}"#,
            #"{"event":"message","id":"","data":"b"}"#,
        ])
    }

    @Test func invalidUTF8BecomesReplacementCharacters() throws {
        let result = try Self.run(bytes: Array("data: a".utf8) + [0xFF] + Array("b\n\n".utf8))
        #expect(result.stdoutText == "{\"event\":\"message\",\"id\":\"\",\"data\":\"a\u{FFFD}b\"}\n")
    }

    @Test func aTruncatedStreamKeepsWhatCameAndExits10() throws {
        let result = try Self.run("data: {\"type\":\"start\"}\n\ndata: {\"type\":\"text-delta\",\"delta\":\"Hel")
        #expect(result.status == 10)
        #expect(result.stdoutLines == [#"{"event":"message","id":"","data":{"type":"start"}}"#])
        #expect(result.stderrText.contains("line 3"))
        #expect(result.stderrText.split(separator: "\n").count == 1)
    }

    @Test func autoDetectsTheV4DataStream() throws {
        let input = "f:{\"messageId\":\"m\"}\n0:\"Hel\"\n0:\"lo\"\n9:{\"toolCallId\":\"t\",\"toolName\":\"x\",\"args\":{\"q\":1.5}}\n"
            + "d:{\"finishReason\":\"stop\"}\n"
        let expected = [
            #"{"event":"data-stream","id":"","data":{"code":"f","value":{"messageId":"m"}}}"#,
            #"{"event":"data-stream","id":"","data":{"code":"0","value":"Hel"}}"#,
            #"{"event":"data-stream","id":"","data":{"code":"0","value":"lo"}}"#,
            #"{"event":"data-stream","id":"","data":{"code":"9","value":{"toolCallId":"t","toolName":"x","args":{"q":1.5}}}}"#,
            #"{"event":"data-stream","id":"","data":{"code":"d","value":{"finishReason":"stop"}}}"#,
        ]
        let auto = try Self.run(input)
        #expect(auto.status == 0)
        #expect(auto.stdoutLines == expected)
        #expect(try Self.run(input, ["--format", "data-stream"]).stdoutLines == expected)
        // Read as SSE, the same lines are unknown fields: no events.
        let asSSE = try Self.run(input + "\n", ["--format", "sse"])
        #expect(asSSE.status == 0)
        #expect(asSSE.stdoutText == "")
        #expect(try Self.run("0:\"a\"\n", ["--raw"]).stdoutLines == [#"{"event":"data-stream","id":"","data":"0:\"a\""}"#])
    }

    @Test func detectsTheFormatWhenTheFirstLineArrivesInPieces() throws {
        // Whatever the reads turn out to be, the result is the same; the pauses make separate
        // reads likely, they do not decide the outcome.
        let dataStream = try Run.shell(#"(printf '\xef\xbb'; sleep 0.1; printf '\xbf\n0:'; sleep 0.1; printf '"Hi"\n') | ps-sse"#)
        #expect(dataStream.status == 0)
        #expect(dataStream.stdoutLines == [#"{"event":"data-stream","id":"","data":{"code":"0","value":"Hi"}}"#])
        let sse = try Run.shell(#"(printf 'd'; sleep 0.1; printf 'ata: 1\n'; sleep 0.1; printf '\n') | ps-sse"#)
        #expect(sse.status == 0)
        #expect(sse.stdoutLines == [#"{"event":"message","id":"","data":1}"#])
        // "e:" could start either; not JSON after it, so SSE (an unknown field).
        let ambiguous = try Self.run("e:x\ndata: 2\n\n")
        #expect(ambiguous.stdoutLines == [#"{"event":"message","id":"","data":2}"#])
    }

    @Test func aMalformedDataStreamLineIsReportedAndTheRestKept() throws {
        let result = try Self.run("0:\"a\"\nnot a line\n0:{oops\n0:\"b\"\n")
        #expect(result.status == 3)
        #expect(result.stdoutLines == [
            #"{"event":"data-stream","id":"","data":{"code":"0","value":"a"}}"#,
            #"{"event":"data-stream","id":"","data":{"code":"0","value":"b"}}"#,
        ])
        let messages = result.stderrText.split(separator: "\n")
        #expect(messages.contains { $0.contains("line 2") })
        #expect(messages.contains { $0.contains("line 3") })
    }

    @Test func endsQuietlyWhenTheReaderGoesAway() throws {
        // Read from a file, so that no other writer in the pipeline can complain of a closed
        // pipe; the output (5 MB) is far more than a pipe holds, so ps-sse is still writing when
        // head has gone.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ps-sse-epipe-\(getpid()).sse")
        let event = "data: {\"type\":\"text-delta\",\"delta\":\"x\"}\n\n"
        try Data(String(repeating: event, count: 100_000).utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let result = try Run.shell("ps-sse '\(url.path)' | head -1; echo \"status ${PIPESTATUS[0]}\"")
        #expect(result.stdoutLines == [#"{"event":"message","id":"","data":{"type":"text-delta","delta":"x"}}"#, "status 141"])
        #expect(result.stderrText == "")
    }

    @Test func writesEachRecordAsSoonAsItsEventIsComplete() throws {
        // The second event is sent only after the first record came out: a buffered writer
        // would deadlock here (and the test time out).
        let script = """
            coproc P { ps-sse; }
            # bash closes and unsets P's descriptors once the coprocess ends (as soon as its
            # input closes, under load before cat starts): keep copies of its own.
            pid=$P_PID
            exec 3<&${P[0]} 4>&${P[1]}
            printf 'data: 1\\n\\n' >&4
            read -r first <&3
            echo "$first"
            printf 'data: 2\\n\\n' >&4
            exec 4>&- {P[1]}>&-
            cat <&3
            wait $pid; echo "status $?"
            """
        let result = try Run.shell(script, timeout: 60)
        #expect(result.stdoutLines == [
            #"{"event":"message","id":"","data":1}"#, #"{"event":"message","id":"","data":2}"#, "status 0",
        ])
    }

    @Test func readsAFileArgumentOrDash() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ps-sse-test-\(getpid()).sse")
        try Data("data: {\"a\":1}\n\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let result = try Run.command("ps-sse", [url.path])
        #expect(result.status == 0)
        #expect(result.stdoutLines == [#"{"event":"message","id":"","data":{"a":1}}"#])
        #expect(try Self.run("data: 2\n\n", ["-"]).stdoutLines == [#"{"event":"message","id":"","data":2}"#])
    }

    @Test func aMissingFileIsAClearError() throws {
        let result = try Run.command("ps-sse", ["/nonexistent/stream.sse"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrText == "ps-sse: cannot open /nonexistent/stream.sse: No such file or directory\n")
    }

    @Test func refusesATerminalOnStdinWithAHint() throws {
        // script(1) runs ps-sse with a pseudo-terminal as its standard input.
        let result = try Run.shell("command -v script >/dev/null || exit 77; script -qec ps-sse /dev/null </dev/null")
        try #require(result.status != 77, "script(1) is not installed")
        #expect(result.status == 2)
        #expect(result.stdoutText.contains("ps-sse: reads from standard input, which is a terminal."))
        #expect(result.stdoutText.contains("curl -sN URL | ps-sse"))
    }

    /// Random mixes of stream pieces, good and bad: ps-sse never crashes, exits with a documented
    /// status, and every record it writes is one line that jansson (what the next command uses)
    /// reads back, even when data was copied into it as it was.
    @Test func anyInputGivesReadableRecordsAndADocumentedStatus() throws {
        let pieces: [[UInt8]] = [
            "data: ", "data:", "data", "event: x", "id: 1", "id: \u{0}", "retry: 10", "retry: x", ": c", "\n", "\r", "\r\n",
            "\n\n", #"{"a":1}"#, "[1,2", #""s\u00e9""#, #""\ud800""#, "1e400", "99999999999999999999", "[DONE]", "0:",
            "0:\"hi\"\n", "d:{}\n", " ", "\t", "\u{0}", "null", "tru", #"{"\u0000":1}"#, #"{"a":[{}]}"#, "é",
        ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xEF, 0xBB, 0xBF]]
        let argumentChoices = [[], ["--raw"], ["--format", "sse"], ["--format", "data-stream"]]
        var seed: UInt64 = 0x5EED  // Fixed: a failure reproduces.
        func next() -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: seed >> 33)
        }
        for _ in 0..<150 {
            let input = (0..<(next() % 50)).flatMap { _ in pieces[next() % pieces.count] }
            let arguments = argumentChoices[next() % argumentChoices.count]
            let result = try Self.run(bytes: input, arguments)
            let shown = "input \(String(decoding: input, as: UTF8.self).debugDescription) \(arguments)"
            #expect([0, 3, 10].contains(result.status), "\(shown)")
            #expect(result.stdout.isEmpty || result.stdout.last == 0x0A, "\(shown)")
            #expect(!result.stdout.contains(0), "\(shown)")
            for line in result.stdout.split(separator: 0x0A) {
                let record = try? JSON.parse(bytes: Array(line))
                #expect(record?["event"] != nil && record?["data"] != nil, "\(shown): \(String(decoding: line, as: UTF8.self))")
            }
        }
    }

    @Test func aBadOptionIsAUsageError() throws {
        let result = try Run.command("ps-sse", ["--format", "xml"], stdin: Data())
        #expect(result.status == 2)
    }
}
