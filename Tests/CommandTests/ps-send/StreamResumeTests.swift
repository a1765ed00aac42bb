import Foundation
import Testing
import TestSupport

/// A reply whose connection breaks is joined again (stream-join) from the chunk after the last
/// one written; --resume does the same in a later run; --list-streams shows what is in flight.
@Suite struct StreamResumeTests {
    /// The text and tool parts of a message record, for comparing a rebuilt reply with the stored one.
    static func content(_ message: [String: Any]?) -> [String] {
        ((message?["parts"] as? [[String: Any]]) ?? []).compactMap { part in
            guard let type = part["type"] as? String, type != "step-start" else { return nil }
            if type == "text" { return "text:" + ((part["text"] as? String) ?? "") }
            if type.hasPrefix("tool-") { return type + ":" + ((part["toolCallId"] as? String) ?? "") }
            return nil
        }
    }

    static func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
    }

    @Test(arguments: ["please explain with a table", "please use a tool to read the page"])
    func aCutReplyIsJoinedAndEqualsTheStoredOne(_ question: String) throws {
        let server = try LocalServer.start(extraArguments: ["--pace-ms", "15", "--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        try server.armFault(#"{"drop":true,"afterEvents":5,"midEvent":true,"times":1}"#)
        let dir = sandbox.directory
        let sent = try sandbox.shell("ps-send '\(question)' > '\(dir)/reply.sse' && ps-sse < '\(dir)/reply.sse' | ps-parts --final")
        #expect(sent.status == 0, "\(sent.stderrText)")
        #expect(sent.stderrText.contains("the connection broke after 5 chunks"), "\(sent.stderrText)")
        let rebuilt = try Records.parse(sent.stdoutText).last
        let stored = try Records.parse(try sandbox.run("ps-history", []).stdoutText).last
        #expect(rebuilt?["id"] as? String == stored?["id"] as? String)
        #expect(Self.content(rebuilt) == Self.content(stored))
        #expect(!Self.content(stored).isEmpty)
        // Only whole events were written: every data line is a chunk or [DONE], none twice.
        let data = try Self.lines(dir + "/reply.sse").filter { $0.hasPrefix("data: ") }
        #expect(data.last == "data: [DONE]")
        for line in data.dropLast() {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8))) != nil, "broken event: \(line)")
        }
        #expect(data.filter { $0.contains("\"type\":\"start\"") }.count == 1)
        #expect(data.filter { $0.contains("\"type\":\"finish\"") }.count == 1)
    }

    @Test func aLaterRunFollowsAReplyInFlight() throws {
        let server = try LocalServer.start(extraArguments: ["--pace-ms", "40", "--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let dir = sandbox.directory
        let run = try sandbox.shell("""
            ps-send 'please explain with a table' > '\(dir)/first.sse' &
            for i in $(seq 100); do
              ps-send --list-streams > '\(dir)/streams.ndjson'
              [ -s '\(dir)/streams.ndjson' ] && break
              sleep 0.05
            done
            id=$(sed -n 's/.*"messageId":"\\([^"]*\\)".*/\\1/p' '\(dir)/streams.ndjson' | head -n 1)
            ps-send --resume "$id" | ps-sse | ps-parts --final > '\(dir)/joined.ndjson'
            wait
            """)
        #expect(run.status == 0, "\(run.stderrText)")
        let streams = try Records.parse(try String(contentsOfFile: dir + "/streams.ndjson", encoding: .utf8))
        #expect(streams.count == 1)
        #expect(streams.first?["conversationId"] as? String == LocalServer.globalConversationID)
        let joined = try Records.parse(try String(contentsOfFile: dir + "/joined.ndjson", encoding: .utf8)).last
        let stored = try Records.parse(try sandbox.run("ps-history", []).stdoutText).last
        #expect(Self.content(joined) == Self.content(stored))
        #expect(joined?["id"] as? String == streams.first?["messageId"] as? String)

        // Once it has ended, its chunks are gone: the stored reply is the one to read.
        let ended = try sandbox.run("ps-send", ["--resume", (streams.first?["messageId"] as? String) ?? "?"])
        #expect(ended.status == 6, "\(ended.stderrText)")
        #expect(ended.stderrText.contains("ps-history"))
        let unknown = try sandbox.run("ps-send", ["--resume", "msg_nosuch"])
        #expect(unknown.status == 6)
        #expect(unknown.stderrText.contains("Stream not found"))
        #expect(try sandbox.run("ps-send", ["--list-streams"]).stdoutText.isEmpty)
    }

    @Test func aKeyThatCannotJoinReportsTheCut() throws {
        let server = try LocalServer.start(extraArguments: ["--pace-ms", "5", "--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server, token: LocalServer.mcpKey)
        try server.armFault(#"{"drop":true,"afterEvents":4,"times":1}"#)
        let cut = try sandbox.run("ps-send", ["--page", "page_agent_demo", "hello"])
        #expect(cut.status == 9, "\(cut.stderrText)")
        #expect(!cut.stderrText.contains("joining"))
        let list = try sandbox.run("ps-send", ["--list-streams"])
        #expect(list.status == 5)
        #expect(list.stderrText.contains("session token"))
        let usage = try sandbox.run("ps-send", ["--resume", "m1", "hello"])
        #expect(usage.status == 2)
    }
}
