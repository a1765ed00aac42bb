import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// ps-archive and ps-search --archive given what a hostile server or a careless user would give
/// them (issue 31): FTS5's special queries, records nested deeper than SQLite's JSON functions
/// read, keys written with escapes, NUL in a text, a message of millions of matches, rows put in
/// by another program, another program's database. Real commands on real SQLite files.
@Suite final class ArchiveHostileTests {
    let folder: URL
    let db: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ps-archive-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        db = folder.appendingPathComponent("archive.sqlite").path
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    static func message(_ id: String, _ text: String) -> String {
        #"{"id":"\#(id)","role":"user","conversationId":"c1","parts":[{"type":"text","text":"\#(text)"}]}"#
    }

    func archive(_ records: [String], db path: String? = nil) throws -> ProcessResult {
        try Run.command("ps-archive", ["--db", path ?? db], stdin: Data((records.joined(separator: "\n") + "\n").utf8))
    }

    func search(_ query: String, db path: String? = nil) throws -> (status: Int32, ids: [String], stderr: String) {
        let result = try Run.command("ps-search", ["--db", path ?? db, query])
        let ids = result.stdoutLines.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? String
        }
        return (result.status, ids, result.stderrText)
    }

    /// A plain sqlite3 client's answer (the archive is an ordinary SQLite file).
    func sqlite(_ sql: String, _ path: String? = nil) throws -> String {
        let result = try Run.command("/usr/bin/sqlite3", [path ?? db, sql])
        try #require(result.status == 0, "sqlite3: \(result.stderrText)")
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func ftsSpecialQueriesAreNotFullTextQueries() throws {
        #expect(try archive([Self.message("m1", "hello world")]).status == 0)
        for query in ["*id", "*id 1", "*reads", "*"] {
            let found = try search(query)
            #expect(found.status == 2, "\(query): \(found.stderr)")
            #expect(found.stderr.hasPrefix("ps-search: not a full-text query"), "\(query): \(found.stderr)")
        }
        #expect(try search("hello").ids == ["m1"])
    }

    /// A field nested 1,001 levels deep or more: refused where it comes in, naming its line, and
    /// the other lines of the batch kept and searchable, changeable and removable.
    @Test(arguments: [1001, 2010])
    func aRecordNestedTooDeepIsRefusedAtTheDoor(_ levels: Int) throws {
        let deep = #"{"id":"deep","role":"user","parts":[{"type":"text","text":"hello deep"}],"x":"#
            + String(repeating: "[", count: levels - 1) + String(repeating: "]", count: levels - 1) + "}"
        let result = try archive([Self.message("m1", "hello before"), deep, Self.message("m2", "hello after")])
        #expect(result.status == 3, "\(result.stderrText)")
        #expect(result.stderrText.hasPrefix("ps-archive: stdin: line 2: nested deeper than 1000 levels"), "\(result.stderrText)")
        #expect(result.stderrText.contains("1 line was not a record and skipped (the first: line 2); the others are stored"))
        let found = try search("hello")
        #expect(found.status == 0, "\(found.stderr)")
        #expect(Set(found.ids) == ["m1", "m2"])
        #expect(try archive([Self.message("m1", "changed"), #"{"id":"m1","deleted":true}"#, Self.message("m3", "hello again")]).status == 0)
        #expect(Set(try search("hello").ids) == ["m2", "m3"])
        #expect(try sqlite("SELECT count(*) FROM messages") == "2")
    }

    @Test func aRecordAsDeepAsSQLiteReadsIsKept() throws {
        let levels = 1000
        let deep = #"{"id":"deep","role":"user","parts":[{"type":"text","text":"hello deep"}],"x":"#
            + String(repeating: "[", count: levels - 1) + String(repeating: "]", count: levels - 1) + "}"
        #expect(try archive([deep]).status == 0)
        let found = try Run.command("ps-search", ["--db", db, "deep"])  // too deep for JSONSerialization
        #expect(found.status == 0, "\(found.stderrText)")
        #expect(found.stdoutText.hasPrefix(#"{"id":"deep""#))
        #expect(try archive([#"{"id":"deep","deleted":true}"#]).status == 0)
        #expect(try search("deep").ids == [])
    }

    /// A key written with an escape ("t\u0065xt") is the key "text": the message is found by its
    /// words, and once changed, no longer by the words it lost.
    @Test func anEscapedKeyKeepsTheIndexInStepWithTheRecords() throws {
        let escaped = #"{"id":"m1","role":"user","parts":[{"type":"text","t\u0065xt":"zebra crossing"}]}"#
        #expect(try archive([escaped]).status == 0)
        #expect(try search("zebra").ids == ["m1"])
        #expect(try archive([Self.message("m1", "giraffe neck")]).status == 0)
        #expect(try search("zebra").ids == [])
        #expect(try search("giraffe").ids == ["m1"])
        #expect(try archive([#"{"id":"m1","deleted":true}"#]).status == 0)
        #expect(try search("giraffe").ids == [])
        #expect(try sqlite("SELECT count(*) FROM messages") == "0")
    }

    /// Words after a NUL (\u0000) are found, as ps-search --in finds them.
    @Test func wordsAfterANULAreFound() throws {
        #expect(try archive([Self.message("m1", #"before\u0000after giraffe"#), Self.message("m2", #"a literal \\u0000 zebra"#)]).status == 0)
        #expect(try search("giraffe").ids == ["m1"])
        #expect(try search("before").ids == ["m1"])
        #expect(try search("zebra").ids == ["m2"])
        #expect(try archive([Self.message("m1", "changed"), #"{"id":"m2","deleted":true}"#]).status == 0)
        #expect(try search("giraffe").ids == [])
        #expect(try search("zebra").ids == [])
        #expect(try search("changed").ids == ["m1"])
    }

    /// A row a plain sqlite3 put in (the table has no insert trigger) is indexed by the next ingest.
    @Test func aRowInsertedByAnotherProgramIsIndexedAtTheNextIngest() throws {
        #expect(try archive([Self.message("m1", "hello")]).status == 0)
        _ = try sqlite(#"INSERT INTO messages(source, id, role, record) VALUES ('default', 'x1', 'user', '{"id":"x1","role":"user","content":"planted walrus"}')"#)
        #expect(try archive([Self.message("m2", "hello again")]).status == 0)
        #expect(try search("walrus").ids == ["x1"])
        #expect(try archive([#"{"id":"x1","deleted":true}"#]).status == 0)
        #expect(try search("walrus").ids == [])
    }

    /// A row a plain sqlite3 put in, changed or deleted by the next ingest before that ingest
    /// indexes it: the index stays whole (its own integrity check passes) and finds the change.
    @Test func aRowInsertedByAnotherProgramCanBeChangedOrDeletedAtOnce() throws {
        #expect(try archive([Self.message("m1", "hello")]).status == 0)
        _ = try sqlite(#"INSERT INTO messages(source, id, role, record) VALUES ('default', 'x1', 'user', '{"id":"x1","role":"user","content":"planted walrus"}'), ('default', 'x2', 'user', '{"id":"x2","role":"user","content":"planted otter"}')"#)
        #expect(try archive([Self.message("x1", "changed giraffe"), #"{"id":"x2","deleted":true}"#]).status == 0)
        #expect(try sqlite("INSERT INTO message_fts(message_fts) VALUES ('integrity-check'); SELECT 'whole'") == "whole")
        #expect(try search("walrus").ids == [])
        #expect(try search("otter").ids == [])
        #expect(try search("giraffe").ids == ["x1"])
        #expect(try search("hello").ids == ["m1"])
    }

    /// Another program put in a readable row and one whose record is not JSON: the next ingest
    /// indexes the first, leaves the second out, and stores its own records (every later one too).
    @Test func aRecordThatIsNotJSONBesideOneToIndexDoesNotStopIngests() throws {
        #expect(try archive([Self.message("m1", "hello")]).status == 0)
        _ = try sqlite(#"INSERT INTO messages(source, id, role, record) VALUES ('default', 'x1', 'user', '{"id":"x1","role":"user","content":"planted walrus"}'), ('default', 'x2', 'user', '{not json')"#)
        let first = try archive([Self.message("m2", "giraffe")])
        #expect(first.status == 0, "\(first.stderrText)")
        #expect(try archive([Self.message("m3", "otter")]).status == 0)
        #expect(try search("walrus").ids == ["x1"])
        #expect(try search("giraffe").ids == ["m2"])
        #expect(try search("otter").ids == ["m3"])
    }

    /// Another program's SQLite file is refused by both commands, and left as it was.
    @Test func anotherProgramsDatabaseIsNotAnArchive() throws {
        let other = folder.appendingPathComponent("other.db").path
        _ = try sqlite("CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('hello')", other)
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        let stored = try archive([Self.message("m1", "hello")], db: other)
        #expect(stored.status == 1)
        #expect(stored.stderrText.hasPrefix("ps-archive: \(other): not an archive"), "\(stored.stderrText)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)
        let found = try search("hello", db: other)
        #expect(found.status == 1)
        #expect(found.stderr.hasPrefix("ps-search: \(other): not an archive"), "\(found.stderr)")
        let text = folder.appendingPathComponent("notes.txt").path
        try Data("just text\n".utf8).write(to: URL(fileURLWithPath: text))
        let notSQLite = try search("hello", db: text)
        #expect(notSQLite.status == 1)
        #expect(notSQLite.stderr.hasPrefix("ps-search: \(text): not an archive"), "\(notSQLite.stderr)")
    }

    /// An archive made before the stamp (no application_id, no user_version) is recognised by its
    /// tables, searched, and stamped by the next ps-archive.
    @Test func anArchiveOfAnEarlierVersionStillOpens() throws {
        #expect(try archive([Self.message("m1", "hello")]).status == 0)
        #expect(try sqlite("PRAGMA application_id") != "0")
        _ = try sqlite("PRAGMA application_id = 0; PRAGMA user_version = 0")
        #expect(try search("hello").ids == ["m1"])
        #expect(try archive([Self.message("m2", "hello again")]).status == 0)
        #expect(try search("hello").ids.sorted() == ["m1", "m2"])
        #expect(try sqlite("PRAGMA application_id") == "1347633490")
        #expect(try sqlite("PRAGMA user_version") == "1")
    }

    /// A new archive holds conversations: readable by its owner alone, with its WAL files.
    @Test func aNewArchiveIsPrivate() throws {
        let path = folder.appendingPathComponent("new/archive.sqlite").path
        let result = try Run.shell("umask 022; ps-archive --db '\(path)'",
                                   stdin: Data((Self.message("m1", "hello") + "\n").utf8))
        #expect(result.status == 0, "\(result.stderrText)")
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        // While a reader holds it open, its -wal and -shm are there too.
        let reader = try ChildProcess.spawn("/usr/bin/sqlite3", [path], stdin: .pipe)
        reader.write(Data("BEGIN; SELECT count(*) FROM messages;\n".utf8))
        _ = reader.readStdoutLine(timeout: 10)
        for suffix in ["-wal", "-shm"] {
            #expect(stat(path + suffix, &status) == 0, "\(suffix)")
            #expect(status.st_mode & 0o777 == 0o600, "\(suffix)")
        }
        reader.closeStdin()
        reader.wait()
    }
}

/// One message of twenty million bytes of a repeated word: a search that matches it takes time
/// and memory in proportion to it (SQLite's highlight() took the square of its matches, several
/// times its size in memory), and Ctrl-C or SIGTERM stop it.
@Suite(.serialized) final class ArchiveLongMessageTests {
    static let megabytes = 20

    /// The archive with the message, made once (bench/memory/maxrss.py writes it to ps-archive).
    static let archive: Result<String, Error> = Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ps-archive-long-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let db = folder.appendingPathComponent("archive.sqlite").path
        let run = try MemoryCapTests.measure(
            ["ps-archive", "--db", db], prefix: #"{"id":"long","role":"user","parts":[{"type":"text","text":"first words "#,
            fill: "ab ", bytes: (megabytes << 20) / 3 * 3, suffix: #"last"}]}\n"#)
        guard run.status == 0 else { throw ArchiveFailed(message: run.stderr) }
        return db
    }

    struct ArchiveFailed: Error { let message: String }

    @Test func aSearchOfALongMessageTakesTimeAndMemoryInProportionToIt() throws {
        let db = try Self.archive.get()
        let run = try MemoryCapTests.measure(["ps-search", "--db", db, "ab"], bytes: 0)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutBytes > Self.megabytes << 20)
        #expect(run.stdout.hasPrefix(#"{"id":"long""#))
        #expect(run.maxRSSKiB < 6 * Self.megabytes * 1024 + 40 * 1024, "peak \(run.maxRSSKiB) KiB")
        let rare = try Run.command("ps-search", ["--db", db, "--json", "last"])
        #expect(rare.status == 0)
        let record = try JSONSerialization.jsonObject(with: Data(rare.stdoutLines.first?.utf8 ?? "".utf8)) as? [String: Any]
        #expect(record?["snippet"] as? String == "…ab ab ab ab [last]")
    }

    /// Fifty messages just short of 16 KB, each of one word repeated: snippet() took the square
    /// of each one's matches.
    @Test func manyMessagesOfManyMatchesAreShownInProportionToThem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ps-archive-many-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("archive.sqlite").path
        let text = Array(repeating: "a", count: 8000).joined(separator: " ")
        let records = (1...50).map { #"{"id":"m\#($0)","role":"user","parts":[{"type":"text","text":"\#(text)"}]}"# }
        #expect(try Run.command("ps-archive", ["--db", db], stdin: Data((records.joined(separator: "\n") + "\n").utf8)).status == 0)
        let started = Date()
        let found = try Run.command("ps-search", ["--db", db, "--limit", "50", "a"], timeout: 60)
        #expect(found.status == 0, "\(found.stderrText)")
        #expect(found.stdoutLines.count == 50)
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalStopsASearch(_ signal: Int32) throws {
        let db = try Self.archive.get()
        // Its output goes to /dev/null: a pipe nobody reads would hold it in a write.
        let search = try ChildProcess.spawn("/bin/bash", ["-c", "exec ps-search --db '\(db)' ab >/dev/null"])
        usleep(300_000)
        kill(search.pid, signal)
        let deadline = Date().addingTimeInterval(10)
        while search.isRunning && Date() < deadline { usleep(20_000) }
        if search.isRunning { search.signalGroup(SIGKILL) }
        #expect(search.wait() == 130)
    }
}

/// The archive's fuzz corpus (fuzz/archive): every input that once broke ps-archive or a search
/// of what it stored ends with a status each documents for it, and is searched with FTS5's
/// syntax, its special queries among it.
@Suite struct ArchiveFuzzCorpusTests {
    static let queries = ["*id", "*id 1", "*reads", "*", "\"unclosed", "text: hello", "NEAR(hello world, 2)", "hel*",
                          "hello", "zebra", "giraffe", "walrus", "after", "launch"]

    @Test func archiveCorpusIsStoredAndSearched() throws {
        let files = try FuzzCorpusReplayTests.corpus("archive")
        #expect(files.count >= 5)
        for (name, data) in files {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ps-archive-corpus-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let db = folder.appendingPathComponent("archive.sqlite").path
            let stored = try Run.command("ps-archive", ["--db", db], stdin: data, timeout: 60)
            #expect([0, 3].contains(stored.status), "\(name): ps-archive status \(stored.status) \(stored.stderrText.prefix(300))")
            for query in Self.queries {
                let found = try Run.command("ps-search", ["--db", db, query], timeout: 60)
                #expect([0, 2].contains(found.status), "\(name) \(query): ps-search status \(found.status) \(found.stderrText.prefix(300))")
            }
        }
    }
}
