import PSArchive
import PSCore
import Testing

/// What ps-search and its helper (ps-archive-postgres --serve-search) say to each other comes through
/// unchanged: every field of the query, each hit (its rank to the last bit), a failure's status.
@Suite final class SearchWireTests {
    private func read<T>(_ value: JSON, _ reader: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        var line = SearchWire.line(value)
        #expect(line.popLast() == 0x0A)
        #expect(!line.contains(0x0A), "one line")
        return try line.withUnsafeBytes { try reader($0) }
    }

    @Test func aRequestCarriesTheURLAndEveryFilter() throws {
        let query = ArchiveQuery(text: "\"launch date\" -draft", source: "work", conversationId: "c1", role: "user",
                                 since: "2025-11", until: "2025-12", limit: 7)
        let (db, read) = try self.read(SearchWire.request(db: "postgresql://u:pw@h/db", query: query), SearchWire.readRequest)
        #expect(db == "postgresql://u:pw@h/db")
        #expect([read.text, read.source, read.conversationId, read.role, read.since, read.until] == [query.text, "work", "c1", "user", "2025-11", "2025-12"])
        #expect(read.limit == 7)
        let bare = try self.read(SearchWire.request(db: "x", query: ArchiveQuery(text: "a")), SearchWire.readRequest).query
        #expect([bare.source, bare.conversationId, bare.role, bare.since, bare.until] == [nil, nil, nil, nil, nil])
        #expect(throws: (any Error).self) { try self.read(.object(JSONObject([("db", "x")])), SearchWire.readRequest) }
    }

    @Test func aHitAndAFailureComeBackAsTheyWere() throws {
        for (rank, conversation) in [(-0.0607927106320858, #"{"id":"c1","title":"Plans"}"#), (-1.0, nil), (-1e-20, nil)] {
            let hit = ArchiveHit(source: "s", message: #"{"id":"m1","role":"user"}"#, conversation: conversation, rank: rank,
                                 snippet: "the \u{2}launch date\u{3}\nnext")
            guard case .hit(let back) = try read(SearchWire.hit(hit), SearchWire.reply) else { Issue.record("not a hit"); return }
            #expect(back.rank.bitPattern == rank.bitPattern)
            #expect([back.source, back.message, back.conversation, back.snippet] == [hit.source, hit.message, conversation, hit.snippet])
        }
        let failure = ToolError(.notFound, "postgresql://u@h:5432/db: database \"db\" does not exist")
        guard case .failure(let error) = try read(SearchWire.failure(failure), SearchWire.reply) else { Issue.record("not a failure"); return }
        #expect(error.status == .notFound)
        #expect(error.message == failure.message)
        #expect(throws: (any Error).self) { try read(.object(JSONObject([("id", "m1")])), SearchWire.reply) }
    }
}
