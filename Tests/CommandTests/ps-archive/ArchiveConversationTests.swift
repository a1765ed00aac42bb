import Foundation
import Testing
import TestSupport

/// `ps-history --conversation X | ps-archive`: every message record names its conversation
/// (ps-ndjson(5) "conversationId"), on every backend, so the archive counts the conversation
/// and a search hit names it.
@Suite struct ArchiveConversationTests {
    @Test(arguments: EveryBackendTests.backends)
    func anExportedConversationIsNamedInTheArchive(_ backend: EveryBackendTests.Backend) throws {
        let (server, sandbox) = try backend.startLoggedIn()
        defer { server.stop() }
        let db = sandbox.directory + "/archive.sqlite"
        let run = try sandbox.shell("""
            cd '\(sandbox.directory)'
            ps-send --new-conversation --print-ids "Plan a weekend in Lisbon" 2>ids.txt >/dev/null
            ps-history --conversation "$(sed -n 's/^conversation=//p' ids.txt)" > export.ndjson
            ps-archive --db '\(db)' < export.ndjson
            """, env: ["PS_PROFILE": backend.kind])
        try #require(run.status == 0, "\(backend): \(run.stderrText)")
        let ids = try String(contentsOfFile: sandbox.directory + "/ids.txt", encoding: .utf8)
        let conversation = try #require(Records.value("conversation", in: ids), "\(backend): \(ids)")

        let exported = try Records.parse(try String(contentsOfFile: sandbox.directory + "/export.ndjson", encoding: .utf8))
        try #require(exported.count == 2, "\(backend): \(exported)")
        #expect(exported.allSatisfy { $0["conversationId"] as? String == conversation }, "\(backend): \(exported)")

        let stats = try Records.parse(try sandbox.run("ps-archive", ["--db", db, "--stats"]).stdoutText)
        #expect(stats.count == 1 && stats.first?["conversations"] as? Int == 1, "\(backend): \(stats)")
        let hits = try Records.parse(try sandbox.run("ps-search", ["--db", db, "Lisbon"]).stdoutText)
        try #require(!hits.isEmpty, "\(backend)")
        #expect(hits.allSatisfy { ($0["conversation"] as? [String: Any])?["id"] as? String == conversation },
                "\(backend): \(hits)")
        let narrowed = try sandbox.run("ps-search", ["--db", db, "--conversation", conversation, "Lisbon"])
        #expect(Records.ids(try Records.parse(narrowed.stdoutText)) == Records.ids(hits), "\(backend): \(narrowed.stderrText)")
    }

    /// The same through `--follow`: what it writes, the catch-up and the live messages, names
    /// the conversation.
    @Test func aFollowedConversationIsNamedInTheArchive() throws {
        let server = try LocalServer.start(extraArguments: ["--pace-ms", "2", "--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let follower = try FollowTests.Follower(sandbox, ["--conversation", LocalServer.globalConversationID])
        var written = try follower.records(6)
        try FollowTests.waitUntilJoined(server)
        try FollowTests.send(sandbox, ["--conversation", LocalServer.globalConversationID, "a live question about Lisbon"])
        written += try follower.records(2)
        #expect(follower.interrupt().status == 130)
        #expect(written.allSatisfy { $0["conversationId"] as? String == LocalServer.globalConversationID }, "\(written)")

        let db = sandbox.directory + "/archive.sqlite"
        let lines = try written.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        let archived = try sandbox.run("ps-archive", ["--db", db], stdin: lines.joined(separator: "\n") + "\n")
        try #require(archived.status == 0, "\(archived.stderrText)")
        let stats = try Records.parse(try sandbox.run("ps-archive", ["--db", db, "--stats"]).stdoutText)
        #expect(stats.first?["conversations"] as? Int == 1, "\(stats)")
    }
}
