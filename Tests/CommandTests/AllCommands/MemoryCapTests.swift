import Foundation
import Testing
import TestSupport

/// Every line, event and record has a cap (--max-record-size, PS_MAX_RECORD_MIB): the commands
/// are fed far more than the cap through real pipes, by bench/memory/maxrss.py, which also
/// reports the child's peak memory. The cap is lowered to 1 MiB so that the tests stay fast;
/// past it each command stops with one line and its exit status, the good output before kept.
@Suite struct MemoryCapTests {
    /// The most a command may hold with a 1 MiB cap (a debug build starts well under it).
    static let boundKiB = 80 * 1024
    static let bigInput = 200 * 1024 * 1024

    struct Measured {
        let status: Int
        let maxRSSKiB: Int
        let stdout: String
        let stdoutBytes: Int
        let stderr: String
    }

    static func measure(
        _ command: [String], prefix: String = "", fill: String = "a", bytes: Int = bigInput, suffix: String = "",
        environment: [String: String] = [:]
    ) throws -> Measured {
        let script = Executables.packageRoot.appendingPathComponent("bench/memory/maxrss.py").path
        let program = command[0].hasPrefix("/") ? command[0] : Executables.url(command[0]).path
        let arguments = [script, "--prefix", prefix, "--fill", fill, "--bytes", String(bytes), "--suffix", suffix, "--", program]
            + command.dropFirst()
        let result = try Run.command("/usr/bin/python3", arguments, environment: environment, timeout: 120)
        try #require(result.status == 0, "maxrss.py failed: \(result.stderrText)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        return Measured(
            status: report["status"] as? Int ?? -1, maxRSSKiB: report["maxrssKiB"] as? Int ?? -1,
            stdout: report["stdout"] as? String ?? "", stdoutBytes: report["stdoutBytes"] as? Int ?? -1,
            stderr: report["stderr"] as? String ?? "")
    }

    static let escapedLF = "\\n"

    @Test func psSseStopsAtALineWithNoEnd() throws {
        let run = try Self.measure(
            ["ps-sse", "--max-record-size", "1"], prefix: "data: {\"a\":1}\(Self.escapedLF)\(Self.escapedLF)data: ")
        #expect(run.status == 3)
        #expect(run.stdout == "{\"event\":\"message\",\"id\":\"\",\"data\":{\"a\":1}}\n")
        #expect(run.stderr == "ps-sse: stdin: line 3 is longer than 1 MiB (raise with --max-record-size MiB or PS_MAX_RECORD_MIB)\n")
        #expect(run.maxRSSKiB < Self.boundKiB, "peak \(run.maxRSSKiB) KiB")
    }

    /// A data line past the cap costs the cap once, not the two buffers of a grown copy: the
    /// peak beyond a short stream's stays under one and a half times the cap.
    @Test func psSseHoldsAnOverlongLineOnce() throws {
        let cap = 16
        let short = try Self.measure(["ps-sse", "--max-record-size", String(cap)], prefix: "data: 1\(Self.escapedLF)\(Self.escapedLF)", bytes: 0)
        let long = try Self.measure(["ps-sse", "--max-record-size", String(cap)], prefix: "data: ", bytes: 2 * cap << 20)
        #expect(long.status == 3)
        #expect(long.stderr.hasPrefix("ps-sse: stdin: line 1 is longer than \(cap) MiB"))
        #expect(long.maxRSSKiB - short.maxRSSKiB < cap * 1024 * 3 / 2, "peak \(long.maxRSSKiB) KiB, a short stream's \(short.maxRSSKiB) KiB")
    }

    @Test func psSseStopsAtAnEventOfManyDataLines() throws {
        let run = try Self.measure(
            ["ps-sse", "--max-record-size", "1"], prefix: "data: x\(Self.escapedLF)\(Self.escapedLF)",
            fill: "data: aaaaaaaaaaaaaaaaaaaaaaaaa\(Self.escapedLF)", bytes: 60 * 1024 * 1024)
        #expect(run.status == 3)
        #expect(run.stdout == "{\"event\":\"message\",\"id\":\"\",\"data\":\"x\"}\n")
        #expect(run.stderr.hasPrefix("ps-sse: stdin: the event begun on line 3 is longer than 1 MiB"))
        #expect(run.maxRSSKiB < Self.boundKiB, "peak \(run.maxRSSKiB) KiB")
    }

    @Test func theEnvironmentSetsTheCapToo() throws {
        let run = try Self.measure(
            ["ps-sse"], prefix: "data: ", bytes: 8 * 1024 * 1024, environment: ["PS_MAX_RECORD_MIB": "2"])
        #expect(run.status == 3)
        #expect(run.stderr.contains("line 1 is longer than 2 MiB"))
    }

    @Test func aLongStreamOfShortLinesIsNotCapped() throws {
        // 40 MiB of events, each far under the cap: all pass, in flat memory.
        let run = try Self.measure(
            ["ps-sse", "--max-record-size", "1"], fill: "data: 12345678901234567890\(Self.escapedLF)\(Self.escapedLF)",
            bytes: 28 * 1_500_000)  // whole events only: a multiple of the 28-byte event
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutBytes > 40 * 1024 * 1024)
        #expect(run.maxRSSKiB < Self.boundKiB, "peak \(run.maxRSSKiB) KiB")
    }

    @Test func recordReadersStopAtAnOverlongRecord() throws {
        let partsInput = #"{"event":"message","id":"","data":{"type":"start","messageId":"m1"}}"# + Self.escapedLF
        let message = #"{"id":"m1","role":"assistant","parts":[{"type":"text","text":"a cat sat"}]}"# + Self.escapedLF
        let cases: [(command: [String], prefix: String, firstOutput: String)] = [
            (["ps-parts", "--max-record-size", "1"], partsInput, #""messageId":"m1""#),
            (["ps-render", "--max-record-size", "1", "--format", "text"], message, "a cat sat"),
            (["ps-search", "--max-record-size", "1", "cat"], message, #""messageId":"m1""#),
        ]
        for (command, prefix, firstOutput) in cases {
            let run = try Self.measure(command, prefix: prefix)
            #expect(run.status == 3, "\(command[0]): \(run.stderr)")
            #expect(run.stdout.contains(firstOutput), "\(command[0]) wrote \(run.stdout)")
            #expect(run.stderr.hasPrefix("\(command[0]): stdin: line 2 is longer than 1 MiB (raise with --max-record-size"),
                    "\(run.stderr)")
            #expect(run.maxRSSKiB < Self.boundKiB, "\(command[0]) peak \(run.maxRSSKiB) KiB")
        }
    }

    /// A message under the cap is searched in memory linear in its size, with a small factor:
    /// the snippet is found in one pass, not over an array of its characters.
    @Test func aHugeMessageIsSearchedInLittleMoreThanItsSize() throws {
        let megabytes = 4
        let run = try Self.measure(
            ["ps-search", "zebra"], prefix: #"{"id":"m1","role":"user","parts":[{"type":"text","text":""#,
            fill: "a cat sat ", bytes: megabytes << 20, suffix: #" the zebra  end"}]}\#(Self.escapedLF)"#)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""snippet":"…"#) && run.stdout.contains(#"sat a ca the zebra end"}"#), "\(run.stdout)")
        // The line, its parsed text and the joined text: about 3 copies, and the debug build's start.
        #expect(run.maxRSSKiB < 6 * megabytes * 1024 + 40 * 1024, "peak \(run.maxRSSKiB) KiB for \(megabytes) MiB")
    }

    @Test func theFlagIsInTheHelpOfEveryStreamReader() throws {
        for command in ["ps-sse", "ps-parts", "ps-render", "ps-search", "ps-send", "ps-history", "ps-archive"] {
            let help = try Run.command(command, ["--help"])
            #expect(help.stdoutText.contains("--max-record-size"), "\(command)")
        }
    }

    @Test func invalidUTF8IsReportedOnce() throws {
        let bytes: [UInt8] = Array("data: ok\n\ndata: a".utf8) + [0xFF] + Array("b\n\ndata: ".utf8) + [0xC3] + Array("\n\n".utf8)
        let result = try Run.command("ps-sse", stdin: Data(bytes))
        #expect(result.status == 0)
        #expect(result.stdoutLines.count == 3)
        #expect(result.stdoutLines[1] == "{\"event\":\"message\",\"id\":\"\",\"data\":\"a\u{FFFD}b\"}")
        #expect(result.stderrText == "ps-sse: warning: stdin: the event begun on line 3 is not valid UTF-8: its invalid "
            + "bytes became U+FFFD (said only for the first such event)\n")
    }

    @Test func duplicateKeysInAChunkAreRefused() throws {
        let lines = [
            #"{"event":"message","id":"","data":{"type":"start","messageId":"m1"}}"#,
            #"{"event":"message","id":"","data":{"type":"text-start","id":"t"}}"#,
            #"{"event":"message","id":"","data":{"type":"text-delta","id":"t","delta":"hi","type":"finish"}}"#,
        ]
        let result = try Run.command("ps-parts", stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(result.status == 3)
        #expect(result.stderrText.contains("line 3"))
        #expect(result.stderrText.contains("duplicate"))
    }
}

/// ps-send against a server that streams without end: one line with no line end, or one event
/// whose blank line never comes. The transfer stops at the cap with exit 8, what came before
/// it written, in flat memory.
@Suite(.serialized) struct EndlessServerTests {
    final class EndlessServer {
        let process: ChildProcess
        let port: String

        init(mode: String) throws {
            let script = Executables.packageRoot.appendingPathComponent("Tests/CommandTests/Hostile/endless_line_server.py").path
            process = try ChildProcess.spawn("/usr/bin/python3", [script, mode], environment: Run.environment(), stdin: .null)
            port = String(decoding: process.readStdoutLine(timeout: 20), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }

        deinit {
            process.signalGroup(SIGTERM)
            _ = process.wait()
        }
    }

    @Test(arguments: ["line", "events"])
    func psSendStopsAtTheCap(mode: String) throws {
        let server = try EndlessServer(mode: mode)
        try #require(Int(server.port) != nil, "the server did not start")
        let sandbox = try NetworkSandbox(extra: [
            "PAGESPACE_TOKEN": "t", "PAGESPACE_API_URL": "http://127.0.0.1:\(server.port)", "PS_RETRIES": "0",
        ])
        let run = try MemoryCapTests.measure(
            ["ps-send", "--api", "openai", "--max-record-size", "1", "hello"], bytes: 0, environment: sandbox.environment)
        #expect(run.status == 8, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("data: {\"type\":\"start\",\"messageId\":\"msg-endless\"}\n\n"))
        let unit = mode == "line" ? "line 3" : "the event begun on line 3"
        #expect(run.stderr == "ps-send: the server's answer: \(unit) is longer than 1 MiB (raise with --max-record-size MiB or PS_MAX_RECORD_MIB)\n")
        #expect(run.maxRSSKiB < MemoryCapTests.boundKiB, "peak \(run.maxRSSKiB) KiB")
    }
}
