import Foundation
import Testing
import TestSupport

/// ps-history against a server that pages as PageSpace does (newest `limit` rows matching the
/// cursor, oldest first): complete exports, incremental exports, ties, deletions, faults.
@Suite(.serialized) struct HistoryCommandTests {

    static func seededIDs(_ range: ClosedRange<Int>) -> [String] {
        range.map { "msg_" + String(format: "%08d", $0) }
    }

    /// Appends `count` messages to the global conversation (as other devices would).
    static func append(_ count: Int, to server: LocalServer, sameTimestamp: Bool = false) throws -> [String] {
        let reply = try server.request(
            "POST", "/_test/messages",
            body: #"{"conversationId":"\#(LocalServer.globalConversationID)","count":\#(count),"sameTimestamp":\#(sameTimestamp)}"#)
        return try #require(try reply.jsonObject()["ids"] as? [String], "\(reply.status) \(reply.text)")
    }

    @Test(arguments: LocalServer.dialects, [1000, 5000])
    func fullExportsAreCompleteInOrderOnce(dialect: String, count: Int) throws {
        let server = try LocalServer.start(
            dialect: dialect, extraArguments: ["--history-messages", String(count), "--messages-per-timestamp", "3", "--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let export = try sandbox.run("ps-history", ["--conversation", LocalServer.globalConversationID])
        #expect(export.status == 0, "\(export.stderrText)")
        #expect(Records.ids(try Records.parse(export.stdoutText)) == Self.seededIDs(1...count))
        #expect(export.stderrText == "")
        // Small pages, many boundaries inside bursts of equal timestamps: still every message once.
        let small = try sandbox.run("ps-history", ["--conversation", LocalServer.globalConversationID, "--page-size", "7"])
        #expect(Records.ids(try Records.parse(small.stdoutText)) == Self.seededIDs(1...count))
    }

    /// A page larger than --max-page-bytes stops the export before it fills the memory: exit 8,
    /// one clear line, nothing written and the state untouched; a larger cap exports it all.
    @Test func aPageOverTheCapStopsTheExport() throws {
        let server = try LocalServer.start(extraArguments: ["--history-messages", "300", "--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let state = sandbox.directory + "/state.json"
        let args = ["--conversation", LocalServer.globalConversationID, "--state", state]
        let capped = try sandbox.run("ps-history", args + ["--max-page-bytes", "4096"])
        #expect(capped.status == 8)
        #expect(capped.stderrText.contains("larger than 4096 bytes"), "\(capped.stderrText)")
        #expect(capped.stderrText.contains("--max-page-bytes"))
        #expect(capped.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: state))
        let small = try sandbox.run("ps-history", args + ["--max-page-bytes", "4096", "--page-size", "5"])
        #expect(small.status == 0, "\(small.stderrText)")
        #expect(Records.ids(try Records.parse(small.stdoutText)) == Self.seededIDs(1...300))
        #expect(try sandbox.run("ps-history", ["--max-page-bytes", "12"]).status == 2)
    }

    @Test(arguments: LocalServer.dialects) func incrementalRunsWriteExactlyTheNewMessages(dialect: String) throws {
        let server = try LocalServer.start(dialect: dialect, extraArguments: ["--history-messages", "300", "--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let state = sandbox.directory + "/state.json"
        let args = ["--conversation", LocalServer.globalConversationID, "--state", state]
        let first = try sandbox.run("ps-history", args)
        #expect(Records.ids(try Records.parse(first.stdoutText)) == Self.seededIDs(1...300), "\(first.stderrText)")
        for count in [0, 1, 199, 200, 201, 1000] {
            let added = try Self.append(count, to: server)
            let run = try sandbox.run("ps-history", args)
            #expect(run.status == 0, "\(count): \(run.stderrText)")
            #expect(Records.ids(try Records.parse(run.stdoutText)) == added, "\(count) new messages")
        }
        // Several new messages written in the same tick as the last exported one.
        let ties = try Self.append(3, to: server, sameTimestamp: true)
        #expect(Records.ids(try Records.parse(try sandbox.run("ps-history", args).stdoutText)) == ties)
        // The last exported message deleted meanwhile: its timestamp still tells old from new.
        let last = try #require(ties.last)
        let added = try Self.append(5, to: server)
        #expect(try server.request("DELETE", "/_test/messages/" + last).status == 200)
        #expect(Records.ids(try Records.parse(try sandbox.run("ps-history", args).stdoutText)) == added)
        #expect(try sandbox.run("ps-history", args).stdout.isEmpty)
    }

    @Test(arguments: LocalServer.dialects) func aFailedExportWritesNothingAndTheRerunCompletes(dialect: String) throws {
        let server = try LocalServer.start(dialect: dialect, extraArguments: ["--history-messages", "500"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let state = sandbox.directory + "/state.json"
        let args = ["--conversation", LocalServer.globalConversationID, "--state", state, "--page-size", "50"]
        let first = try sandbox.run("ps-history", args)
        #expect(first.status == 0)
        let added = try Self.append(260, to: server)

        // A dropped connection after two pages (libcurl itself resends once on a new connection).
        try server.armFault(#"{"dropHistory":true,"afterPages":2,"times":5}"#)
        let dropped = try sandbox.run("ps-history", args + ["--retries", "0"])
        #expect(dropped.status == 9, "\(dropped.stderrText)")
        #expect(dropped.stdout.isEmpty)
        try server.clearFaults()
        // A server error.
        try server.armFault(#"{"status":500,"times":1,"path":"/api/ai"}"#)
        let failed = try sandbox.run("ps-history", args + ["--retries", "0"])
        #expect(failed.status == 8, "\(failed.stderrText)")
        #expect(failed.stdout.isEmpty)
        try server.clearFaults()

        let rerun = try sandbox.run("ps-history", args)
        #expect(rerun.status == 0, "\(rerun.stderrText)")
        #expect(Records.ids(try Records.parse(rerun.stdoutText)) == added)
        #expect(Records.ids(try Records.parse(first.stdoutText)) + added
            == Records.ids(try Records.parse(try sandbox.run("ps-history", ["--conversation", LocalServer.globalConversationID]).stdoutText)))
    }

    @Test func aPageOfOneTimestampIsReported() throws {
        // 60 messages per timestamp and pages of 50: no later timestamp to page from. The
        // legacy server pages by timestamp alone and skips the rest of the burst: said on stderr.
        let server = try LocalServer.start(
            dialect: "pagespace-legacy", extraArguments: ["--history-messages", "240", "--messages-per-timestamp", "60"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let export = try sandbox.run("ps-history", ["--conversation", LocalServer.globalConversationID, "--page-size", "50"])
        #expect(export.stderrText.contains("share the timestamp"), "\(export.stderrText)")
        #expect(export.stderrText.contains("may be incomplete"))
        // A page large enough for the burst: complete, and nothing to report.
        let whole = try sandbox.run("ps-history", ["--conversation", LocalServer.globalConversationID, "--page-size", "100"])
        #expect(Records.ids(try Records.parse(whole.stdoutText)) == Self.seededIDs(1...240))
        #expect(whole.stderrText == "")
    }

    @Test func anAgentsConversationsAreExportedOneByOne() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        #expect(try sandbox.run("ps-send", ["--page", "page_agent_demo", "a new conversation"]).status == 0)
        let export = try sandbox.run("ps-history", ["--page", "page_agent_demo"])
        #expect(export.status == 0, "\(export.stderrText)")
        let records = try Records.parse(export.stdoutText)
        let conversations = records.compactMap { $0["conversationId"] as? String }
        #expect(conversations.count == records.count)
        #expect(Set(conversations).count == 2)
        // Grouped: each conversation's messages together, never interleaved.
        #expect(conversations == conversations.sorted { conversations.firstIndex(of: $0)! < conversations.firstIndex(of: $1)! })
        #expect(records.contains { Records.text(of: $0) == "a new conversation" })
    }

    @Test func onePageAndPageAIHistory() throws {
        let server = try LocalServer.start(extraArguments: ["--history-messages", "30"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let all = try Records.parse(try sandbox.run("ps-history", ["--all"]).stdoutText)
        #expect(all.count == 30)
        let newest = try sandbox.run("ps-history", ["--limit", "10"])
        #expect(Records.ids(try Records.parse(newest.stdoutText)) == Array(Records.ids(all).suffix(10)))
        let cursor = try #require(Records.value("next-cursor", in: newest.stderrText))
        let older = try sandbox.run("ps-history", ["--limit", "10", "--cursor", cursor, "--direction", "before"])
        #expect(Records.ids(try Records.parse(older.stdoutText)) == Array(Records.ids(all)[10..<20]))

        let list = try Records.parse(try sandbox.run("ps-history", ["--list"]).stdoutText)
        #expect(Records.ids(list).contains(LocalServer.globalConversationID))
        #expect(list.allSatisfy { $0["title"] != nil })
        let agents = try sandbox.run("ps-history", ["--list", "--agent", "page_agent_demo"])
        #expect(Records.ids(try Records.parse(agents.stdoutText)).contains("demoagentconversation"), "\(agents.stderrText)")

        let agentHistory = try sandbox.run("ps-history", ["--page", "page_agent_demo", "--conversation", "demoagentconversation"])
        #expect(agentHistory.status == 0, "\(agentHistory.stderrText)")
        let agentRecords = try Records.parse(agentHistory.stdoutText)
        #expect(!agentRecords.isEmpty)
        let send = try sandbox.run("ps-send", ["--page", "page_agent_demo", "--conversation", "demoagentconversation", "hi agent"])
        #expect(send.status == 0, "\(send.stderrText)")
        let bare = try Records.parse(try sandbox.run("ps-history", ["--page", "page_agent_demo", "--conversation", "demoagentconversation"]).stdoutText)
        #expect(bare.count == agentRecords.count + 2)
        #expect(Records.text(of: bare[bare.count - 2]) == "hi agent")
        let unknown = try sandbox.run("ps-history", ["--conversation", "conv_unknown"])
        #expect(unknown.status == 6 && unknown.stdout.isEmpty)
    }


    @Test func listIsATableOnATerminalAndRecordsInAPipe() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        // script(1) gives the command a pseudo-terminal as stdout.
        let table = try sandbox.shell("COLUMNS=72 script -qec 'ps-history --list' /dev/null")
        #expect(table.status == 0, "\(table.stderrText)")
        let lines = table.stdoutText.replacingOccurrences(of: "\r", with: "").split(separator: "\n")
        #expect(lines.first?.hasPrefix("ID") == true && lines.first?.contains("TITLE") == true, "\(table.stdoutText)")
        #expect(lines.contains { $0.hasPrefix(LocalServer.globalConversationID) && $0.contains("General Workspace Chat") })
        #expect(lines.allSatisfy { $0.count <= 72 })
        let piped = try sandbox.run("ps-history", ["--list"])
        #expect(Records.ids(try Records.parse(piped.stdoutText)).contains(LocalServer.globalConversationID))
    }
}
