import ArgumentParser
import PSArchive
import PSCore

/// The ps-archive command: an SQLite archive. ps-archive-postgres keeps one in PostgreSQL with
/// the same options and what they do (ArchiveActions).
public struct PsArchive: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "ps-archive",
        abstract: "Keep message records in a searchable archive (SQLite).",
        usage: "ps-history ... | ps-archive [--db <file>] [--source <name>]\n       ps-archive --stats\n       ps-archive --export [--source <name>]",
        discussion: """
            Reads NDJSON on standard input and stores it: message records (ps-history's export, \
            ps-parts --final's), ps-history --follow's updates ("updated":true, which replace the \
            stored message) and deletions ({"id":…,"deleted":true}, which remove it unless \
            --keep-deleted), and conversation records from ps-history --list (for their titles). \
            A message is keyed by its source and id: the same record twice is stored once, and \
            two servers' ids never collide. The source is the record's "origin" key when it has \
            one, else --source (default: "default").

            The archive is one SQLite file (default $XDG_DATA_HOME/ps-tools/archive.sqlite, else \
            ~/.local/share/ps-tools/archive.sqlite) with an FTS5 full-text index; ps-search \
            --archive searches it. Input is stored in transactions, each committed as soon as no \
            more input is waiting (a live follower's records are searchable as they come) or once \
            it holds 16 MB of input, in WAL mode with a busy timeout: two writers at once take \
            turns, and a writer killed in the middle loses only its last transaction, which running \
            it again stores once. The full-text index grows by a b-tree per transaction, merged \
            a few at a time, and a search reads each; after a run that stored an eighth of the \
            archive or more, they are merged into one (a few seconds per million messages). \
            Two copies that ranking reads, each message's length and how many messages hold each \
            word, are kept in step by each transaction, in proportion to the messages it changed; \
            after a transaction that stored an eighth of the archive or more, or another \
            program's change to it, they are made again from the whole index when the run ends \
            (together about two seconds per million messages); until then a search reads the \
            index's own lengths and counts a query's words itself, with the same results, more \
            slowly. Pairs of common \
            English words side by side (the, of, it...: PostgreSQL's English stop words) are \
            indexed again, each pair as one word, so that a phrase of two of them ("of the") is \
            found from its own messages, not from every message with "the". ps-archive keeps \
            them in step as it writes. A plain sqlite3 can read and change the archive (though \
            not that table, message_grams, whose tokenizer only ps-archive has); after such a \
            change the next run of ps-archive makes the pairs again (about 20 seconds per \
            million messages), and until then a search does without them. A message row such \
            a client inserts is indexed by the next run of ps-archive.

            A new archive file is readable by its owner only (0600, and so are its -wal and \
            -shm files), and is marked as an archive (PRAGMA application_id 1347633490, \
            user_version 1). A --db file that is not an archive (another program's SQLite \
            database, an empty file, a file that is not SQLite) is exit 1, and left unchanged; \
            an archive of an earlier version, unmarked, is known by its tables and marked.

            --db takes a file. An archive that a team shares in PostgreSQL is kept by \
            ps-archive-postgres(1), from the package ps-tools-server, with the same options \
            (and searched by ps-archive-postgres search); --db postgresql://… here is exit 2, \
            naming it.

            A line that is not such a record, or a message nested deeper than 1000 levels of arrays \
            and objects (the most SQLite's JSON functions read), is reported with its line number \
            and skipped; the other lines are stored, and the run ends with exit 3. A line longer \
            than --max-record-size (64 MiB by default) is refused before more of it than that is \
            held, and ends the run with exit 3, the lines before it kept. A key written with \
            escapes ("t\\u0065xt") is stored written plainly.

            --stats writes, per source, the number of messages and conversations and the oldest \
            and newest createdAt (a table on a terminal, else NDJSON \
            {"source":"work","messages":120,"conversations":4,"oldest":"…","newest":"…"}). \
            --export writes the stored records back out as NDJSON (conversations, then messages \
            in the order they were first stored): ps-archive --export | ps-archive --db other.sqlite \
            makes the same archive.

            EXAMPLES:
              ps-history --all --state ~/.cache/ps/work.state | ps-archive --source work
              ps-history --follow CONVERSATION | ps-archive --source work
              ps-archive --stats
              ps-archive --export --source work > work.ndjson
              ps-search --archive "launch date"
              ps-archive --export | ps-archive-postgres --db postgresql://team@db/archive

            \(ExitStatus.helpText([.success, .failure, .usage, .malformedInput, .notFound, .brokenPipe]))
            """,
        version: ToolVersion.line)

    @OptionGroup var recordSize: RecordSizeOption

    @Option(name: .long, help: ArgumentHelp("The archive file (default: $XDG_DATA_HOME/ps-tools/archive.sqlite).",
                                            valueName: "file"), completion: .file())
    var db: String?

    @OptionGroup var actions: ArchiveActions

    public func run() throws {
        guard let path = db ?? SQLiteArchive.defaultPath() else {
            throw ToolError(.usage, "no archive file: HOME is not set (give --db FILE)")
        }
        if ArchiveStores.isPostgres(path) {
            throw ToolError(.usage, "a PostgreSQL archive (--db postgresql://…) is kept by ps-archive-postgres, "
                + "with the same options (package ps-tools-server)")
        }
        try actions.run(recordSize: recordSize, usage: "ps-history ... | ps-archive") { create in
            try SQLiteArchive(path: path, create: create)
        }
    }
}

/// What ps-archive and ps-archive-postgres do with their archive, and the options that say it:
/// store the records of standard input, or write --stats or --export.
public struct ArchiveActions: ParsableArguments {
    public init() {}

    @Option(name: .long, help: ArgumentHelp(
        "The source of records without an \"origin\" key (default: \"default\"); with --export, only this source's records.",
        valueName: "name"))
    var source: String?

    @Flag(name: .long, help: "Keep deleted messages (marked deleted) instead of removing them.")
    var keepDeleted = false

    @Flag(name: .long, help: "Write the number of messages and conversations per source, and the oldest and newest.")
    var stats = false

    @Flag(name: .long, help: "Write the stored records back out as NDJSON.")
    var export = false

    @Flag(name: .long, help: "Write NDJSON records even on a terminal (--stats).")
    var json = false

    public func validate() throws {
        if stats && export { throw ValidationError("--stats and --export are separate runs") }
        if keepDeleted && (stats || export) { throw ValidationError("--keep-deleted applies to storing records") }
        if let source, source.isEmpty { throw ValidationError("--source takes a name") }
    }

    /// Runs the action on the archive `open` opens (creating its tables when `create`); `usage`
    /// is the usage line for standard input on a terminal.
    public func run(recordSize: RecordSizeOption, usage: String, open: (_ create: Bool) throws -> ArchiveStore) throws {
        if stats || export {
            let store = try open(false)
            try stats ? writeStatistics(store) : writeExport(store)
            return
        }
        recordSize.apply()
        try Terminal.refuseInteractiveStdin(usage: "usage: " + usage)
        try ArchiveIngest(store: try open(true), source: source ?? "default",
                          keepDeleted: keepDeleted).run(RecordLineReader(ChunkReader(fd: 0, name: "stdin")))
    }

    private func writeExport(_ store: ArchiveStore) throws {
        let writer = RecordWriter()
        try store.export(source: source) { record in
            writer.append { $0.append(contentsOf: record.utf8); $0.append(0x0A) }
            if writer.pendingCount >= 64 * 1024 { try writer.flush() }
        }
        try writer.flush()
    }

    private func writeStatistics(_ store: ArchiveStore) throws {
        let writer = RecordWriter()
        let rows = try store.statistics()
        guard !json && Terminal.isTerminal(1) else {
            for row in rows {
                try writer.write(.object(JSONObject([
                    ("source", .string(row.source)), ("messages", .integer(Int64(row.messages))),
                    ("conversations", .integer(Int64(row.conversations))),
                    ("oldest", row.oldest.map(JSON.string) ?? .null), ("newest", row.newest.map(JSON.string) ?? .null),
                ])))
            }
            return
        }
        var table = TextTable(headers: ["SOURCE", "MESSAGES", "CONVERSATIONS", "OLDEST", "NEWEST"])
        for row in rows {
            table.add([row.source, String(row.messages), String(row.conversations), row.oldest ?? "", row.newest ?? ""]
                .map(TerminalSafeText.sanitize))
        }
        try writer.writeText(table.render(width: Terminal.width(fd: 1), empty: "The archive is empty.\n"))
    }
}
