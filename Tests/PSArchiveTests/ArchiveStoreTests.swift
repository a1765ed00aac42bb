import Foundation
@testable import PSArchive
import Testing

@Suite final class ArchiveStoreTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ps-archive-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    private func record(_ line: String, source: String = "s") throws -> ArchiveRecord {
        var line = line
        return try line.withUTF8 { try ArchiveRecord.read(UnsafeRawBufferPointer($0), source: source) }
    }

    func store(_ archive: SQLiteArchive, _ lines: [String], source: String = "s") throws {
        try archive.begin()
        for line in lines {
            switch try record(line, source: source) {
            case .message(let message): try archive.store(message)
            case .deletion(let source, let id): try archive.delete(source: source, id: id, keep: false)
            case .conversation(let source, let id, let title, let text):
                try archive.storeConversation(source: source, id: id, title: title, record: text)
            }
        }
        try archive.commit()
    }

    func hits(_ archive: SQLiteArchive, _ query: ArchiveQuery) throws -> [ArchiveHit] {
        var result: [ArchiveHit] = []
        try archive.search(query) { result.append($0) }
        return result
    }

    @Test func recordKinds() throws {
        guard case .message(let message) = try record(#"{"id":"m1","role":"user","conversationId":"c1","parts":[],"updated":true}"#)
        else { Issue.record("not a message"); return }
        #expect(message.conversationId == "c1")
        #expect(!message.record.contains("updated"), "an update's mark is not stored")
        guard case .deletion(let source, "m1") = try record(#"{"id":"m1","deleted":true,"origin":"work"}"#) else {
            Issue.record("not a deletion"); return
        }
        #expect(source == "work", "origin names the source")
        guard case .conversation(_, "c1", "Plans", _) = try record(#"{"id":"c1","title":"Plans"}"#) else {
            Issue.record("not a conversation"); return
        }
        #expect(throws: (any Error).self) { try record(#"{"id":"x"}"#) }
        #expect(throws: (any Error).self) { try record(#"[1]"#) }
        #expect(throws: (any Error).self) { try record(#"{"id":"m1","role":3}"#) }
    }

    @Test func textReasoningAndToolColumnsAreSearchedAndNamed() throws {
        let archive = try SQLiteArchive(path: folder.appendingPathComponent("a/b.sqlite").path, create: true)
        try store(archive, [
            #"{"id":"m1","role":"assistant","parts":[{"type":"reasoning","text":"pondering zebras"},{"type":"text","text":"Hello world"}]}"#,
            #"{"id":"m2","role":"assistant","parts":[{"type":"tool-weather","input":{"city":"Oslo"},"output":{"temp":3}}]}"#,
            #"{"id":"m3","role":"user","content":"an old zebra message"}"#,
        ])
        #expect(try hits(archive, ArchiveQuery(text: "zebras")).map(\.message).count == 1)
        #expect(try hits(archive, ArchiveQuery(text: "tool:weather")).count == 1)
        #expect(try hits(archive, ArchiveQuery(text: "tool_io:oslo")).count == 1)
        #expect(try hits(archive, ArchiveQuery(text: "text:oslo")).count == 0, "the columns are separate")
        #expect(try hits(archive, ArchiveQuery(text: "zebra")).count == 1, "content of an older record is text")
        #expect(try hits(archive, ArchiveQuery(text: "zebra*")).count == 2, "prefix queries")
        let hit = try #require(try hits(archive, ArchiveQuery(text: "\"hello world\"")).first)
        #expect(hit.snippet == "\u{2}Hello world\u{3}")
    }

    @Test func updateReplacesTheIndexedTextAndDeletionRemovesIt() throws {
        let archive = try SQLiteArchive(path: folder.appendingPathComponent("x.sqlite").path, create: true)
        try store(archive, [#"{"id":"m1","role":"user","parts":[{"type":"text","text":"first apple"}]}"#])
        try store(archive, [#"{"id":"m1","role":"user","parts":[{"type":"text","text":"second banana"}],"updated":true}"#])
        #expect(try hits(archive, ArchiveQuery(text: "apple")).count == 0)
        #expect(try hits(archive, ArchiveQuery(text: "banana")).count == 1)
        try store(archive, [#"{"id":"m1","deleted":true,"conversationId":"c"}"#])
        #expect(try hits(archive, ArchiveQuery(text: "banana")).count == 0)
        #expect(try archive.statistics().first?.messages ?? 0 == 0)
        try archive.verify()
    }

    /// New messages are indexed with columns computed in Swift (MessageText) where the shape is
    /// common, else by the view; an update or deletion takes them out through the view. If the two
    /// disagreed, FTS5's integrity check would fail and searches would find removed words.
    @Test func theIndexedColumnsAreTheViewsForEveryShape() throws {
        let archive = try SQLiteArchive(path: folder.appendingPathComponent("shapes.sqlite").path, create: true)
        let shapes = [
            #"{"type":"text","text":"alpha one"},{"type":"text","text":"alpha two"}"#,
            #"{"type":"text","text":""},{"type":"reasoning","text":"alpha thought"},{"type":"reasoning","text":"more"}"#,
            #"{"type":"text"},{"type":"step-start"},{"type":"file","url":"x"}"#,
            #"{"type":"text","text":5},{"type":"text","text":"alpha"}"#,
            #"{"type":"TOOL-lookup","input":"alpha","output":null}"#,
            #"{"type":"dynamic-tool","toolName":"alpha","input":{"q":"alpha"}}"#,
            #"{"type":"text","text":"caf\u00e9 \u2603 alpha\nnext line"}"#,
            #"{"type":"Text","text":"not a text part alpha"}"#,
            #"{"type":"text","text":null},{"type":"reasoning","text":null},{"type":"text","text":"alpha after null"}"#,
        ]
        var lines = shapes.enumerated().map { #"{"id":"m\#($0.offset)","role":"user","parts":[\#($0.element)]}"# }
        lines.append(#"{"id":"c1","role":"user","content":"alpha in content"}"#)
        lines.append(#"{"id":"c2","role":"user","content":{"not":"text"}}"#)
        lines.append(#"{"id":"c3","role":"user","parts":[],"content":"alpha again"}"#)
        lines.append(#"{"id":"c4","role":"user","parts":{"type":"text","text":"alpha"}}"#)
        for line in lines {
            guard case .message(let message) = try record(line) else { Issue.record(Comment(rawValue: line)); return }
            let expectSwift = !line.contains("tool") && !line.contains("TOOL") && !line.contains(":5}") && !line.contains(#""parts":{"#)
            #expect((message.columns != nil) == expectSwift, Comment(rawValue: line))
        }
        try store(archive, lines)
        try archive.verify()
        let found = try hits(archive, ArchiveQuery(text: "alpha", limit: 100)).count
        #expect(found == 9, "every message with alpha in a column; not a \"Text\" part, object content or parts that are not a list")
        // Replace each by a message without the word, then delete half: the index keeps no trace.
        try store(archive, lines.enumerated().map { index, _ in
            #"{"id":"\#(index < shapes.count ? "m\(index)" : "c\(index - shapes.count + 1)")","role":"user","parts":[{"type":"text","text":"omega"}],"updated":true}"#
        })
        try archive.verify()
        #expect(try hits(archive, ArchiveQuery(text: "alpha")).count == 0)
        try store(archive, (0..<4).map { #"{"id":"m\#($0)","deleted":true}"# })
        try archive.verify()
        #expect(try hits(archive, ArchiveQuery(text: "omega", limit: 100)).count == lines.count - 4)
    }

    /// Each batch is a segment of the FTS5 index; an ingest that wrote a good part of the index
    /// merges them into one (FullTextIndex.optimizeShare), which the same records again keep, and
    /// the hits and their order stay the same.
    @Test func aLargeIngestMergesTheIndexIntoOneSegment() throws {
        let archive = try SQLiteArchive(path: folder.appendingPathComponent("segments.sqlite").path, create: true)
        let words = ["alpha", "beta", "gamma", "delta", "alpha beta", "beta beta gamma"]
        let batches = (0..<10).map { batch in
            (0..<20).map { n in
                #"{"id":"m\#(batch)-\#(n)","role":"user","parts":[{"type":"text","text":"\#(words[(batch + n) % words.count]) \#(n)"}]}"#
            }
        }
        for batch in batches { try store(archive, batch) }
        #expect(try archive.indexSegments() > 1, "a segment per batch, some merged")
        let queries = ["alpha", "beta gamma", "\"beta beta\"", "delta OR alpha"].map { ArchiveQuery(text: $0, limit: 50) }
        func results() throws -> [[String]] {
            try queries.map { try hits(archive, $0).map { "\($0.message) \($0.rank) \($0.snippet)" } }
        }
        let before = try results()
        try archive.finishIngest()
        #expect(try archive.indexSegments() == 1)
        #expect(try results() == before, "the same hits in the same order, with the same ranks and snippets")
        for batch in batches { try store(archive, batch) }
        try archive.finishIngest()
        #expect(try archive.indexSegments() == 1, "the same records again add nothing")
        try store(archive, [#"{"id":"late","role":"user","parts":[{"type":"text","text":"alpha late"}]}"#])
        try archive.finishIngest()
        #expect(try archive.indexSegments() == 2, "one message of 201 is left to automerge")
        try archive.verify()
    }

    /// 2,000 messages of a few words (with weights 1/(k+1)) after "common", which each has.
    private func rankedArchive(_ name: String) throws -> SQLiteArchive {
        let archive = try SQLiteArchive(path: folder.appendingPathComponent(name).path, create: true)
        var generator = SeededGenerator()
        let words = ["common", "often", "sometimes", "rare", "alpha", "beta", "gamma", "delta"]
        let lines = (0..<2000).map { n in
            // Word k is drawn with weight 1/(k+1), after "common", which every message has.
            let picked = (0..<Int.random(in: 3...40, using: &generator)).map { _ in
                words[min(Int(Double(words.count) * pow(Double.random(in: 0..<1, using: &generator), 2.5)), words.count - 1)]
            }
            let text = (["common"] + picked).shuffled(using: &generator).joined(separator: " ")
            let reasoning = n % 7 == 0 ? #",{"type":"reasoning","text":"often rare \#(n)"}"# : ""
            return #"{"id":"m\#(n)","role":"\#(n % 3 == 0 ? "user" : "assistant")","createdAt":"2026-01-\#(10 + n % 20)","#
                + #""parts":[{"type":"text","text":"\#(text)"}\#(reasoning)]}"#
        }
        for batch in stride(from: 0, to: lines.count, by: 500) { try store(archive, Array(lines[batch..<batch + 500])) }
        return archive
    }

    /// Every kind of query, limit and filter finds with ps_rank the rows bm25() finds, in the
    /// same order, with the same ranks.
    func assertRanksAreBM25s(
        _ archive: SQLiteArchive, _ note: String,
        queries: [String] = ["common", "often", "rare", "often rare", "Often RARE common", "naïve CAFE", "\"often often\"",
                             "alpha OR beta", "common NOT delta", "reasoning:rare", "gam*", "NEAR(often rare, 2)"],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let reference = try archive.database.prepare("""
            SELECT m.record, bm25(message_fts) AS rank FROM message_fts f JOIN messages m ON m.rowid = f.rowid
            WHERE message_fts MATCH ?1 AND (?2 IS NULL OR m.role = ?2) AND (?3 IS NULL OR m.created >= ?3)
            ORDER BY rank, f.rowid LIMIT ?4
            """)
        for text in queries {
            for (limit, role, since) in [(1, nil, nil), (5, nil, nil), (20, nil, nil), (3000, nil, nil),
                                         (10, "user", nil), (10, nil, "2026-01-25")] as [(Int, String?, String?)] {
                reference.bind(1, text)
                reference.bind(2, role)
                reference.bind(3, since)
                reference.bind(4, limit)
                var expected: [String] = []
                while try reference.step() { expected.append("\(reference.text(0)!) \(reference.double(1))") }
                reference.reset()
                let found = try hits(archive, ArchiveQuery(text: text, role: role, since: since, limit: limit)).map { "\($0.message) \($0.rank)" }
                #expect(found == expected, "\(note): \(text) limit \(limit) role \(role ?? "-") since \(since ?? "-")", sourceLocation: sourceLocation)
            }
        }
    }

    /// ps_rank gives bm25()'s ranks, the same rows in the same order, for every kind of query,
    /// limit and filter.
    @Test func theRankIsBM25s() throws {
        let archive = try rankedArchive("rank.sqlite")
        try assertRanksAreBM25s(archive, "lengths from FTS5")
    }

    /// A search reads one snapshot (the copy of the lengths is checked against the index it
    /// ranks with, while another process may write), and ends its transaction.
    @Test func aSearchIsOneReadTransaction() throws {
        let archive = try rankedArchive("snapshot.sqlite")
        var open: [Bool] = []
        try archive.search(ArchiveQuery(text: "rare", limit: 2)) { _ in open.append(archive.database.inTransaction) }
        #expect(open == [true, true])
        #expect(!archive.database.inTransaction)
    }

    /// A single phrase with no filter (ranked in one call of ps_rank, RankFunction.everyRow) and
    /// with a filter or two phrases (ranked row by row) finds as many rows as asked, with bm25()'s
    /// ranks; a phrase in no row finds none.
    @Test func aSinglePhraseAndSeveralFindTheirRows() throws {
        let archive = try rankedArchive("once.sqlite")
        for (text, role) in [("common", nil), ("\"often often\"", nil), ("gam*", nil), ("reasoning:rare", nil),
                             ("common", "user"), ("often rare", nil), ("often OR rare", nil)] as [(String, String?)] {
            let found = try hits(archive, ArchiveQuery(text: text, role: role, limit: 5))
            #expect(found.count == 5, "\(text) role \(role ?? "-")")
        }
        try assertRanksAreBM25s(archive, "one call or row by row")
        #expect(try hits(archive, ArchiveQuery(text: "zzz", limit: 5)).count == 0, "a phrase in no row")
    }

    /// After an ingest the lengths come from their copy (RowLengths), with the same ranks; once
    /// the index changes, from FTS5 again until the next ingest ends; a row too long for the copy
    /// is read from FTS5. The ranks are bm25()'s all along.
    @Test func theCopyOfTheLengthsGivesTheSameRanks() throws {
        let archive = try rankedArchive("copy.sqlite")
        try archive.finishIngest()
        try assertRanksAreBM25s(archive, "lengths from the copy")

        // An update changes a row's length: the copy is out of date until the ingest ends.
        try store(archive, [#"{"id":"m4","role":"assistant","parts":[{"type":"text","text":"common rare rare"}]}"#])
        try assertRanksAreBM25s(archive, "after an update")
        try store(archive, [#"{"id":"m5","deleted":true}"#])
        try assertRanksAreBM25s(archive, "after a deletion")

        let long = Array(repeating: "filler", count: 70_000).joined(separator: " ")
        try store(archive, [#"{"id":"long","role":"user","parts":[{"type":"text","text":"\#(long) zeta"}]}"#])
        try archive.finishIngest()
        try assertRanksAreBM25s(archive, "after the ingest ended")
        #expect(try hits(archive, ArchiveQuery(text: "zeta", limit: 5)).count == 1, "a row too long for the copy")
        try assertRanksAreBM25s(archive, "after a row too long for the copy", queries: ["zeta", "filler", "filler zeta", "common"])
    }

    /// After an ingest, a query of plain words takes each word's count of rows from the copy of
    /// the terms' counts (TermCounts); a word in capitals or with an accent is counted as the
    /// index's token. The ranks are bm25()'s, with the copy current and once the index changed.
    @Test func plainWordsTakeTheirCountsFromTheCopyWithBM25sRanks() throws {
        let archive = try rankedArchive("terms.sqlite")
        try store(archive, [#"{"id":"accents","role":"user","parts":[{"type":"text","text":"Naïve café, common"}]}"#])
        try archive.finishIngest()
        let queries = ["often rare", "common", "Often RARE common", "naïve CAFE", "often zzz", "often_rare", "\"often rare\"",
                       "gam*", "often OR rare", "reasoning:rare", "often NOT rare"]
        try assertRanksAreBM25s(archive, "counts from the copy")
        try assertRanksAreBM25s(archive, "counts from the copy, more queries", queries: queries)
        #expect(try hits(archive, ArchiveQuery(text: "naïve CAFE", limit: 5)).map(\.message).count == 1)

        try store(archive, [#"{"id":"m4","role":"assistant","parts":[{"type":"text","text":"rare often"}]}"#])
        try assertRanksAreBM25s(archive, "after an update", queries: queries)
        try archive.finishIngest()
        try assertRanksAreBM25s(archive, "after the ingest ended", queries: queries)
    }

    /// Small ingests into an archive keep the copies ranking reads in step in their own
    /// transactions (the finishing work is in proportion to what they changed, not to the
    /// archive): new rows, replaced rows, deleted rows, a row added, replaced and deleted in one
    /// transaction, a row a plain sqlite3 inserted, a merge of the index. After each, the ranks
    /// are bm25()'s, before the ingest ends and after; at the end every query finds what a fresh
    /// archive of the same records finds, in the same order, with the same ranks and snippets.
    @Test func smallIngestsFindWhatAFreshArchiveFinds() throws {
        let archive = try rankedArchive("small.sqlite")
        try archive.finishIngest()
        let queries = ["common", "often", "rare", "often rare", "Often RARE common", "zeta", "zeta omega", "naïve CAFE",
                       "\"often often\"", "alpha OR beta", "reasoning:rare", "gam*", "omega"]
        func message(_ id: String, _ text: String, reasoning: String? = nil) -> String {
            let reasoning = reasoning.map { #",{"type":"reasoning","text":"\#($0)"}"# } ?? ""
            return #"{"id":"\#(id)","role":"user","createdAt":"2026-01-28","parts":[{"type":"text","text":"\#(text)"}\#(reasoning)]}"#
        }
        let ingests: [(String, [String])] = [
            ("new rows", [message("n1", "zeta often rare"), message("n2", "Naïve café zeta zeta", reasoning: "omega rare")]),
            ("replaced rows", [message("m4", "common rare rare zeta"), message("n1", "omega only"),
                               message("m7", "often often often often", reasoning: "zeta")]),
            ("deleted rows", [#"{"id":"m5","deleted":true}"#, #"{"id":"n2","deleted":true}"#, #"{"id":"m1999","deleted":true}"#]),
            ("one row added, replaced and deleted, another replaced twice",
             [message("n3", "zeta zeta"), message("n3", "omega omega"), #"{"id":"n3","deleted":true}"#,
              message("m8", "rare"), message("m8", "common omega zeta")]),
            ("a row that was deleted comes back", [message("n2", "zeta again")]),
        ]
        for (note, lines) in ingests {
            try store(archive, lines)
            try assertRanksAreBM25s(archive, "\(note), before the ingest ends", queries: queries)
            try archive.finishIngest()
            try assertRanksAreBM25s(archive, "\(note), after", queries: queries)
        }
        // A row inserted by another program (indexed when an ingest ends), then a merge of the
        // index (an ingest of an eighth of it, FullTextIndex.optimizeShare), then one row more.
        try archive.database.execute("""
            INSERT INTO messages(source, id, role, created, record) VALUES ('s', 'plain', 'user', '2026-01-29',
              '{"id":"plain","role":"user","createdAt":"2026-01-29","parts":[{"type":"text","text":"omega zeta common"}]}')
            """)
        try archive.finishIngest()
        try assertRanksAreBM25s(archive, "a row inserted by sqlite3", queries: queries)
        try store(archive, (0..<300).map { message("big\($0)", $0 % 2 == 0 ? "omega often" : "rare zeta \($0)") })
        try archive.finishIngest()
        #expect(try archive.indexSegments() == 1)
        try store(archive, [message("n4", "often zeta omega")])
        try assertRanksAreBM25s(archive, "after a merge, before the ingest ends", queries: queries)
        try archive.finishIngest()
        try assertRanksAreBM25s(archive, "after a merge", queries: queries)
        try archive.verify()

        var records: [String] = []
        try archive.export(source: nil) { records.append($0) }
        let fresh = try SQLiteArchive(path: folder.appendingPathComponent("fresh.sqlite").path, create: true)
        try store(fresh, records)
        try fresh.finishIngest()
        for text in queries {
            for limit in [1, 5, 3000] {
                let query = ArchiveQuery(text: text, limit: limit)
                let found = try hits(archive, query).map { "\($0.message) \($0.rank) \($0.snippet)" }
                let expected = try hits(fresh, query).map { "\($0.message) \($0.rank) \($0.snippet)" }
                #expect(found == expected, "\(text) limit \(limit)")
            }
        }
    }

    /// A long message's snippet is the words around its first match, cut from its highlighted
    /// text: FTS5's snippet() takes time in the square of a row's matches (20,000 matches, about
    /// four seconds a hit; 70,000, a minute). A short message keeps snippet()'s.
    @Test func aLongMessageWithManyMatchesHasAWindowSnippet() throws {
        let archive = try SQLiteArchive(path: folder.appendingPathComponent("long.sqlite").path, create: true)
        let log = Array(repeating: "needle", count: 20_000).joined(separator: " ")
        try store(archive, [
            #"{"id":"log","role":"user","parts":[{"type":"text","text":"one two three four five six \#(log) end"}]}"#,
            #"{"id":"short","role":"user","parts":[{"type":"text","text":"a short needle here"}]}"#,
        ])
        let found = try hits(archive, ArchiveQuery(text: "needle", limit: 5))
        #expect(found.count == 2)
        let snippets = Dictionary(uniqueKeysWithValues: found.map { ($0.message.contains("\"log\"") ? "log" : "short", $0.snippet) })
        #expect(snippets["short"] == "a short \u{2}needle\u{3} here")
        let marked = "\u{2}needle\u{3}"
        #expect(snippets["log"] == "…three four five six " + Array(repeating: marked, count: 12).joined(separator: " ") + "…")
    }

    @Test func aMalformedQueryIsAUsageError() throws {
        let archive = try SQLiteArchive(path: folder.appendingPathComponent("q.sqlite").path, create: true)
        #expect(throws: (any Error).self) { try hits(archive, ArchiveQuery(text: "\"unclosed")) }
    }
}

/// A fixed sequence of pseudo-random numbers (SplitMix64), so that a test's data is the same each run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64 = 20261125

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
