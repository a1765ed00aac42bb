import Foundation
import Testing
import TestSupport

/// ps-archive and ps-search --archive on real SQLite files in a scratch folder, and the tests
/// whose meaning is the same for both on a real PostgreSQL (PostgresTestServer), each in a
/// new database, through ps-archive-postgres and ps-archive-postgres search.
@Suite final class ArchiveTests {
    enum Store: String, CaseIterable, CustomStringConvertible, Sendable {
        case sqlite, postgresql
        var description: String { rawValue }
    }

    let folder: URL
    var db: String
    var store = Store.sqlite

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ps-archive-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        db = folder.appendingPathComponent("archive.sqlite").path
    }

    /// The archive this test writes: the SQLite file, or a new PostgreSQL database.
    func use(_ store: Store) throws {
        self.store = store
        if store == .postgresql { db = try PostgresTestServer.require().newDatabase() }
    }

    /// The command that keeps this test's archive, and the words that search it.
    var archiveCommand: String { store == .postgresql ? "ps-archive-postgres" : "ps-archive" }
    var searchWords: [String] { store == .postgresql ? ["ps-archive-postgres", "search"] : ["ps-search"] }

    /// Another, empty archive of the same kind.
    func another(_ store: Store) throws -> String {
        store == .postgresql ? try PostgresTestServer.require().newDatabase() : folder.appendingPathComponent("copy.sqlite").path
    }

    static func message(_ id: String, _ text: String, role: String = "user", conversation: String = "c1",
                        at: String = "2025-11-01T09:00:00Z", extra: String = "") -> String {
        #"{"id":"\#(id)","role":"\#(role)","conversationId":"\#(conversation)","createdAt":"\#(at)","parts":[{"type":"text","text":"\#(text)"}]\#(extra)}"#
    }

    static func lines(_ records: [String]) -> Data { Data((records.joined(separator: "\n") + "\n").utf8) }

    func archive(_ records: [String], _ arguments: [String] = []) throws -> ProcessResult {
        try Run.command(archiveCommand, ["--db", db] + arguments, stdin: Self.lines(records))
    }

    func stats(_ path: String? = nil) throws -> [[String: Any]] {
        let result = try Run.command(archiveCommand, ["--db", path ?? db, "--stats"])
        #expect(result.status == 0, "\(result.stderrText)")
        return result.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func exported(_ arguments: [String] = []) throws -> [String] {
        let result = try Run.command(archiveCommand, ["--db", db, "--export"] + arguments)
        #expect(result.status == 0, "\(result.stderrText)")
        return result.stdoutLines
    }

    func search(_ arguments: [String]) throws -> [[String: Any]] {
        let result = try Run.command(searchWords[0], searchWords.dropFirst() + ["--db", db] + arguments)
        #expect(result.status == 0, "\(result.stderrText)")
        return result.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static let sample = [
        #"{"id":"c1","title":"Launch plans"}"#,
        message("m1", "When is the launch date?"),
        message("m2", "The launch is in March, after the review.", role: "assistant", at: "2025-11-01T09:00:05Z"),
        message("m3", "Groceries: apples and pears", conversation: "c2", at: "2025-12-02T10:00:00Z"),
    ]

    @Test(arguments: Store.allCases)
    func anExportIsTheRecordsThatWentIn(_ store: Store) throws {
        try use(store)
        #expect(try archive(Self.sample).status == 0)
        #expect(try exported() == Self.sample)
        let copy = try another(store)
        let command = archiveCommand
        let result = try Run.shell("\(command) --db '\(db)' --export | \(command) --db '\(copy)' && \(command) --db '\(copy)' --export")
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutLines == Self.sample)
        let rows = try stats()
        #expect(rows.count == 1)
        #expect(rows.first?["messages"] as? Int == 3)
        #expect(rows.first?["conversations"] as? Int == 2)
        #expect(rows.first?["oldest"] as? String == "2025-11-01T09:00:00Z")
        #expect(rows.first?["newest"] as? String == "2025-12-02T10:00:00Z")
    }

    @Test(arguments: Store.allCases)
    func theSameRecordsTwiceAreStoredOnceAndTwoSourcesNeverCollide(_ store: Store) throws {
        try use(store)
        #expect(try archive(Self.sample, ["--source", "work"]).status == 0)
        #expect(try archive(Self.sample + Self.sample, ["--source", "work"]).status == 0)
        #expect(try archive([Self.message("m1", "the same id elsewhere")], ["--source", "home"]).status == 0)
        #expect(try archive([Self.message("m1", "named by its origin", extra: #","origin":"lab""#)]).status == 0)
        let rows = Dictionary(uniqueKeysWithValues: try stats().map { ($0["source"] as? String ?? "", $0["messages"] as? Int ?? -1) })
        #expect(rows == ["work": 3, "home": 1, "lab": 1])
        #expect(try exported(["--source", "work"]) == Self.sample)
        #expect(try search(["--source", "home", "same"]).count == 1)
        #expect(try search(["--source", "work", "same"]).isEmpty)
    }

    @Test(arguments: Store.allCases)
    func aFollowedUpdateReplacesAndADeletionRemoves(_ store: Store) throws {
        try use(store)
        #expect(try archive(Self.sample).status == 0)
        let follow = [
            Self.message("m1", "When is the release party?", extra: #","updated":true"#),
            #"{"id":"m2","deleted":true,"conversationId":"c1"}"#,
        ]
        #expect(try archive(follow).status == 0)
        #expect(try search(["launch"]).isEmpty, "the old text and the deleted message are gone from the index")
        let hit = try #require(try search(["party"]).first)
        #expect(hit["id"] as? String == "m1")
        #expect(hit["updated"] == nil, "the archive keeps the message, not the update's mark")
        #expect(try exported().count == 3)

        #expect(try archive([#"{"id":"m3","deleted":true}"#], ["--keep-deleted"]).status == 0)
        #expect(try search(["groceries"]).count == 1, "--keep-deleted keeps it")
        #expect(try stats().first?["messages"] as? Int == 2)
    }

    /// Messages are stored a batch at a time (PostgreSQL: one statement each), with what one at
    /// a time would leave: a message twice in one batch, an update of one, a deletion between
    /// two and a message stored again after it.
    @Test(arguments: Store.allCases, [false, true])
    func oneBatchLeavesWhatOneAtATimeWould(_ store: Store, keepDeleted: Bool) throws {
        try use(store)
        let input = [
            Self.message("m1", "first apple"),
            Self.message("m2", "banana"),
            Self.message("m1", "first apple"),
            Self.message("m1", "second cherry", extra: #","updated":true"#),
            #"{"id":"c1","title":"Fruit"}"#,
            #"{"id":"m2","deleted":true}"#,
            Self.message("m3", "date"),
            Self.message("m2", "banana again"),
            Self.message("m4", "elderberry"),
            Self.message("m4", "fig", extra: #","updated":true"#),
        ]
        #expect(try archive(input, keepDeleted ? ["--keep-deleted"] : []).status == 0)
        let ids = { (query: String) in try self.search([query]).compactMap { $0["id"] as? String } }
        #expect(try ids("apple").isEmpty && ids("elderberry").isEmpty, "updates replaced the text")
        #expect(try ids("cherry") == ["m1"] && ids("fig") == ["m4"] && ids("banana") == ["m2"])
        #expect((try search(["cherry"]).first?["conversation"] as? [String: Any])?["title"] as? String == "Fruit")
        // Deleted and stored again: a new row after m3 (removed), or the kept row where it was.
        let order = keepDeleted ? ["m1", "m2", "m3", "m4"] : ["m1", "m3", "m2", "m4"]
        let exportedIDs = try exported().compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
        }
        #expect(exportedIDs == ["c1"] + order)
        #expect(try stats().first?["messages"] as? Int == 4)
        #expect(try archive(input, keepDeleted ? ["--keep-deleted"] : []).status == 0)
        #expect(try stats().first?["messages"] as? Int == 4, "the same input again: nothing new")
    }

    @Test(arguments: Store.allCases)
    func aMalformedLineIsExit3WithItsNumberAndTheOtherLinesAreKept(_ store: Store) throws {
        try use(store)
        let result = try archive([Self.message("m1", "kept"), Self.message("m2", "kept too"), "{not json", Self.message("m3", "kept after")])
        #expect(result.status == 3)
        #expect(result.stderrText.hasPrefix("\(archiveCommand): stdin: line 3: not JSON"))
        #expect(result.stderrText.contains("1 line was not a record and skipped (the first: line 3)"))
        #expect(try exported().count == 3)
        let noKind = try archive([#"{"id":"x","foo":1}"#])
        #expect(noKind.status == 3)
        #expect(noKind.stderrText.contains("line 1: neither a message"))
        let none = store == .postgresql ? try PostgresTestServer.require().url("no_such_database")
            : folder.appendingPathComponent("none.sqlite").path
        let missing = try Run.command(archiveCommand, ["--db", none, "--stats"])
        #expect(missing.status == 6, "\(missing.stderrText)")
    }

    /// A line past the cap (lowered to 1 MiB) is refused as it arrives: 200 MiB without a line
    /// end are never held, the lines before it are stored.
    @Test(arguments: Store.allCases)
    func aLinePastTheCapIsExit3BeforeItIsHeld(_ store: Store) throws {
        try use(store)
        let before = [Self.message("m1", "kept"), Self.message("m2", "kept too")].joined(separator: MemoryCapTests.escapedLF)
        let run = try MemoryCapTests.measure(
            [archiveCommand, "--db", db, "--max-record-size", "1"],
            prefix: before + MemoryCapTests.escapedLF + #"{"id":"m3","role":"user","parts":[{"type":"text","text":""#)
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr == "\(archiveCommand): stdin: line 3 is longer than 1 MiB (raise with --max-record-size MiB or PS_MAX_RECORD_MIB)\n")
        #expect(run.maxRSSKiB < MemoryCapTests.boundKiB, "peak \(run.maxRSSKiB) KiB")
        #expect(try exported().count == 2)
    }

    static func conversationRecords(prefix: String, count: Int) -> [String] {
        (0..<count).map { message("\(prefix)\($0)", "message number \($0) about topic\($0 % 7)", conversation: "c\($0 % 10)") }
    }

    @Test(arguments: Store.allCases)
    func twoWritersAtOnceStoreEveryRecordOnce(_ store: Store) throws {
        try use(store)
        let a = Self.conversationRecords(prefix: "m", count: 3000)
        let b = Array(a[1500...]) + Self.conversationRecords(prefix: "n", count: 1500)
        let fileA = folder.appendingPathComponent("a.ndjson"), fileB = folder.appendingPathComponent("b.ndjson")
        try Self.lines(a).write(to: fileA)
        try Self.lines(b).write(to: fileB)
        let result = try Run.shell("""
            set -e
            \(archiveCommand) --db '\(db)' < '\(fileA.path)' & one=$!
            \(archiveCommand) --db '\(db)' < '\(fileB.path)' & two=$!
            wait $one; wait $two
            """)
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(try stats().first?["messages"] as? Int == 4500)
        #expect(Set(try exported()).count == 4500)
    }

    /// Input that comes in several reads is stored in several batches, each a b-tree (segment) of
    /// the FTS5 index; at the end of a run that stored much of the archive they are merged into
    /// one, which a search reads instead of several. Counted from the index's own tables.
    @Test func aLargeIngestInManyBatchesLeavesTheIndexInOneSegment() throws {
        for batch in 0..<6 {
            try Self.lines(Self.conversationRecords(prefix: "b\(batch)-", count: 200))
                .write(to: folder.appendingPathComponent("batch\(batch).ndjson"))
        }
        let result = try Run.shell("""
            set -e
            for batch in '\(folder.path)'/batch*.ndjson; do cat "$batch"; sleep 0.2; done | ps-archive --db '\(db)'
            python3 -c 'import sqlite3, sys
            print(sqlite3.connect(sys.argv[1]).execute("SELECT count(DISTINCT segid) FROM message_fts_idx").fetchone()[0])' '\(db)'
            """)
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutLines == ["1"])
        #expect(try stats().first?["messages"] as? Int == 1200)
    }

    /// A transaction stays open only while more input is waiting: records from a writer that
    /// pauses (a live follower) are committed, and seen by other readers, before its input ends.
    @Test(arguments: Store.allCases)
    func recordsFromAWriterThatPausesAreCommittedBeforeItsInputEnds(_ store: Store) throws {
        try use(store)
        let child = try ChildProcess.spawn(Executables.url(archiveCommand).path, ["--db", db],
                                           environment: Run.environment(), stdin: .pipe)
        func waitForStored(_ count: Int) throws -> Int {
            var stored = 0
            for _ in 0..<100 where stored != count {
                stored = (try? Run.command(self.archiveCommand, ["--db", self.db, "--stats"]).stdoutLines.compactMap {
                    (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["messages"] as? Int
                }.first) ?? 0
                if stored != count { Thread.sleep(forTimeInterval: 0.1) }
            }
            return stored
        }
        _ = child.write(Self.lines([Self.message("m1", "first"), Self.message("m2", "second")]))
        #expect(try waitForStored(2) == 2, "committed while the writer is still there")
        _ = child.write(Self.lines([Self.message("m3", "third")]))
        #expect(try waitForStored(3) == 3)
        #expect(child.isRunning)
        child.closeStdin()
        #expect(child.wait() == 0)
    }

    @Test(arguments: Store.allCases)
    func killedInTheMiddleThenRunAgainLosesAndRepeatsNothing(_ store: Store) throws {
        try use(store)
        let records = Self.conversationRecords(prefix: "m", count: 4000)
        let child = try ChildProcess.spawn(Executables.url(archiveCommand).path, ["--db", db],
                                           environment: Run.environment(), stdin: .pipe)
        _ = child.write(Self.lines(Array(records[..<2500])))
        Thread.sleep(forTimeInterval: 0.5)
        kill(child.pid, SIGKILL)
        _ = child.wait()
        let stored = try stats().first?["messages"] as? Int ?? 0
        #expect(stored <= 2500)
        #expect(try archive(records).status == 0)
        #expect(try stats().first?["messages"] as? Int == 4000)
        #expect(try exported() == records, "each record once, in the order first stored")
    }

    /// Ranking, filters, snippets: the same on both stores; the query syntax is each one's own
    /// (FTS5's; PostgreSQL's websearch_to_tsquery, ranked by ts_rank).
    @Test(arguments: Store.allCases)
    func searchRanksAndFilters(_ store: Store) throws {
        try use(store)
        #expect(try archive(Self.sample + [
            Self.message("m4", "launch launch launch", role: "assistant", conversation: "c3", at: "2025-12-05T00:00:00Z"),
            #"{"id":"m5","role":"assistant","conversationId":"c3","parts":[{"type":"tool-weather","input":{"city":"Oslo"},"output":"cold"}]}"#,
        ]).status == 0)
        let ids = { (arguments: [String]) in try self.search(arguments).compactMap { $0["id"] as? String } }
        #expect(try ids(["launch"]).first == "m4", "the message that says it most, and shortest, first")
        #expect(Set(try ids(["launch"])) == ["m1", "m2", "m4"])
        #expect(try ids(["launch", "--role", "user"]) == ["m1"])
        #expect(Set(try ids(["launch", "--conversation", "c1"])) == ["m1", "m2"])
        #expect(try ids(["launch", "--since", "2025-12"]) == ["m4"])
        #expect(Set(try ids(["launch", "--until", "2025-12"])) == ["m1", "m2"])
        #expect(try ids(["launch", "--limit", "1"]).count == 1)
        #expect(try ids(["\"launch date\""]) == ["m1"])
        let hit = try #require(try search(["\"launch date\""]).first)
        #expect(hit["snippet"] as? String == "When is the [launch date]?")
        #expect((hit["conversation"] as? [String: Any])?["title"] as? String == "Launch plans")
        #expect(hit["rank"] is Double)
        #expect(try ids(["weather"]) == ["m5"], "tool names are searched")
        #expect(try ids(["oslo"]) == ["m5"], "tool input is searched")
        switch store {
        case .sqlite:
            #expect(try ids(["launch NOT march", "--conversation", "c1"]) == ["m1"])
            #expect(try ids(["launch OR groceries", "--role", "user"]).count == 2)
            #expect(try ids(["laun*", "--role", "user"]) == ["m1"])
            #expect(try ids(["tool:weather"]) == ["m5"])
            #expect(try ids(["text:oslo"]).isEmpty, "tool input is its own column")
            #expect(try ids(["tool_io:oslo"]) == ["m5"])
            let bad = try Run.command("ps-search", ["--db", db, "\"unclosed"])
            #expect(bad.status == 2)
            #expect(bad.stderrText.hasPrefix("ps-search: not a full-text query"))
        case .postgresql:
            #expect(try ids(["launch -march", "--conversation", "c1"]) == ["m1"])
            #expect(try ids(["launch OR groceries", "--role", "user"]).count == 2)
            #expect(try ids(["\"unclosed"]).isEmpty, "websearch_to_tsquery takes any text")
        }
        let search = searchWords.joined(separator: " ")
        let rendered = try Run.shell("\(search) --db '\(db)' party; \(search) --db '\(db)' '\"launch date\"' | ps-render --format plain")
        #expect(rendered.stdoutText.contains("When is the launch date?"))
    }

    /// The match markers sit among multi-byte characters (found as bytes: ArchiveSearch.marked):
    /// the text around them comes out whole.
    @Test func aSnippetKeepsTheCharactersAroundAMatchWhole() throws {
        #expect(try archive([Self.message("m1", "Café für 東京 – naïve e\\u0301 👋🏽 done", conversation: "c1")]).status == 0)
        let hit = try #require(try search(["東京"]).first)
        #expect(hit["snippet"] as? String == "Café für [東京] – naïve e\u{301} 👋🏽 done")
        #expect(try search(["naïve"]).first?["snippet"] as? String == "Café für 東京 – [naïve] e\u{301} 👋🏽 done")
    }

    @Test func theDefaultArchiveIsSearchedWhenNothingElseIsNamed() throws {
        let data = folder.appendingPathComponent("data")
        let path = data.appendingPathComponent("ps-tools/archive.sqlite").path
        let env = ["XDG_DATA_HOME": data.path, "HOME": folder.path]
        #expect(try Run.command("ps-archive", [], stdin: Self.lines(Self.sample), environment: env).status == 0)
        #expect(FileManager.default.fileExists(atPath: path))
        let result = try Run.command("ps-search", ["groceries"], environment: env)
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutLines.count == 1)
        #expect(result.stdoutText.contains(#""id":"m3""#))
    }

    /// The password goes no further than the user put it: not into an error (exit 4 for a wrong
    /// one, 9 for no server), and it may stay out of argv altogether in PGPASSWORD.
    @Test func aPostgresPasswordIsNeverShown() throws {
        let server = try PostgresTestServer.require()
        try use(.postgresql)
        let wrong = db.replacingOccurrences(of: server.password, with: "wrong-secret-1234")
        let refused = try Run.command("ps-archive-postgres", ["--db", wrong], stdin: Self.lines(Self.sample))
        #expect(refused.status == 4, "\(refused.stderrText)")
        #expect(!refused.stderrText.contains("wrong-secret-1234") && !refused.stderrText.contains(server.password))
        #expect(refused.stderrText.hasPrefix("ps-archive-postgres: postgresql://\(PostgresTestServer.user)@127.0.0.1:\(server.port)/archive_"),
                "\(refused.stderrText)")
        let closedPort = try FreePort.take()
        let nobody = try Run.command("ps-archive-postgres", ["--db", "postgresql://u:secret-5678@127.0.0.1:\(closedPort)/x"], stdin: Self.lines(Self.sample))
        #expect(nobody.status == 9, "\(nobody.stderrText)")
        #expect(!nobody.stderrText.contains("secret-5678"))
        let bare = db.replacingOccurrences(of: ":" + server.password, with: "")
        let fromEnvironment = try Run.command("ps-archive-postgres", ["--db", bare], stdin: Self.lines(Self.sample),
                                              environment: ["PGPASSWORD": server.password])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderrText)")
        #expect(try exported() == Self.sample)
    }

    /// On a pseudo-terminal read by a terminal emulator (pyte, through Terminal/reply_terminal.py).
    @Test func onATerminalAListWithTheMatchInBold() throws {
        #expect(try archive(Self.sample + [Self.message("m9", "launch \\u001b]52;c;evil\\u0007 codes", conversation: "c1")]).status == 0)
        let script = Executables.packageRoot.appendingPathComponent("Tests/CommandTests/Terminal/reply_terminal.py").path
        let result = try Run.command(LiveTerminalTests.python, [script, "ps-search --db '\(db)' launch"], timeout: 120)
        try #require(result.status == 0, "reply_terminal.py failed: \(result.stderrText)")
        let screen = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let lines = screen["lines"] as? [String] ?? []
        let bytes = String(decoding: Data(base64Encoded: screen["bytes"] as? String ?? "") ?? Data(), as: UTF8.self)
        #expect(screen["status"] as? Int == 0, "\(lines)")
        #expect(lines.contains { $0.contains("Launch plans  2025-11-01 09:00  user") }, "\(lines)")
        #expect(lines.contains { $0.contains("When is the launch date?") }, "\(lines)")
        #expect(bytes.contains("When is the \u{1B}[1mlaunch\u{1B}[22m date?"), "the match in bold")
        #expect(!bytes.contains("\u{1B}]52"), "no control sequence from content reaches the terminal")
        #expect(lines.contains { $0.contains("\u{241B}]52") }, "\(lines)")
    }
}
