import Foundation
import Testing
import TestSupport

/// `ps-history --every-conversation --state FILE | ps-archive`, on every backend: two runs, with
/// a new conversation and new messages in an old one between them; each message is written
/// exactly once across the runs, and the archive holds each once.
@Suite struct EveryConversationTests {
    @Test(arguments: EveryBackendTests.backends)
    func twoRunsWriteEachMessageOnce(_ backend: EveryBackendTests.Backend) throws {
        let (server, sandbox) = try backend.startLoggedIn()
        defer { server.stop() }
        let run = try sandbox.shell("""
            cd '\(sandbox.directory)'
            ps-send --new-conversation --print-ids "Plan a weekend in Lisbon" 2>ids-a.txt >/dev/null
            ps-history --every-conversation --state all.state > run1.ndjson
            ps-send "What should I pack?" >/dev/null
            ps-send --new-conversation --print-ids "Plan a week in Porto" 2>ids-b.txt >/dev/null
            ps-history --every-conversation --state all.state > run2.ndjson
            ps-history --every-conversation --state all.state > run3.ndjson
            cat run1.ndjson run2.ndjson run3.ndjson | ps-archive --db archive.sqlite
            ps-archive --db archive.sqlite --stats > stats.ndjson
            """, env: ["PS_PROFILE": backend.kind])
        try #require(run.status == 0, "\(backend): \(run.stderrText)")
        func records(_ name: String) throws -> [[String: Any]] {
            try Records.parse(try String(contentsOfFile: sandbox.directory + "/" + name, encoding: .utf8))
        }
        func text(_ name: String) throws -> String { try String(contentsOfFile: sandbox.directory + "/" + name, encoding: .utf8) }
        let first = try records("run1.ndjson").filter { $0["role"] != nil }
        let second = try records("run2.ndjson").filter { $0["role"] != nil }
        let conversationA = try #require(Records.value("conversation", in: try text("ids-a.txt")), "\(backend)")
        let conversationB = try #require(Records.value("conversation", in: try text("ids-b.txt")), "\(backend)")

        #expect(first.contains { $0["conversationId"] as? String == conversationA && Records.text(of: $0) == "Plan a weekend in Lisbon" },
                "\(backend)")
        let userTexts = second.filter { $0["role"] as? String == "user" }.map { Records.text(of: $0) }
        #expect(Set(userTexts) == ["What should I pack?", "Plan a week in Porto"], "\(backend): \(userTexts)")
        #expect(second.count == 4, "\(backend): only the two new turns, \(second.count) messages")
        #expect(Set(second.compactMap { $0["conversationId"] as? String }) == [conversationA, conversationB], "\(backend)")
        let ids = Records.ids(first + second)
        #expect(Set(ids).count == ids.count, "\(backend): a message written twice")
        #expect(try records("run3.ndjson").filter { $0["role"] != nil }.isEmpty, "\(backend): nothing new, nothing written")
        // Each conversation's record (its title) precedes its messages.
        let listed = try records("run2.ndjson").filter { $0["role"] == nil }.compactMap { $0["id"] as? String }
        #expect(listed.contains(conversationA) && listed.contains(conversationB), "\(backend): \(listed)")

        if backend.kind == "pagespace" {
            let agents = first.filter { $0["conversationId"] as? String == "demoagentconversation" }
            #expect(agents.count == 4, "the Page AI agent's conversation is exported too")
            #expect(first.contains { $0["conversationId"] as? String == LocalServer.globalConversationID })
        }
        let stats = try records("stats.ndjson")
        #expect(stats.count == 1 && stats.first?["messages"] as? Int == ids.count, "\(backend): \(stats)")
    }
}
