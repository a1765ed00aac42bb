import ArgumentParser
import PSArchive
import PSArchiveCommand
import PSArchivePostgres
import PSCore

/// ps-archive-postgres: ps-archive's command (the default) and ps-archive-postgres search, with
/// the archive in PostgreSQL. The one executable that links PostgresNIO.
struct PsArchivePostgres: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-archive-postgres",
        abstract: "Keep message records in an archive in PostgreSQL, and search it.",
        usage: "ps-history ... | ps-archive-postgres --db <url> [--source <name>]\n       ps-archive-postgres --db <url> --stats|--export\n       ps-archive-postgres search --db <url> <query>",
        discussion: """
            ps-archive(1) and ps-search(1) --archive for an archive that a team shares, in a \
            PostgreSQL database: ps-archive-postgres --db URL takes ps-archive's options and \
            stores, counts (--stats) and exports (--export) the same records as ps-archive does \
            in SQLite, and ps-archive-postgres search --db URL QUERY takes ps-search's archive \
            options and writes the same records, or the same list on a terminal. It comes in the \
            package ps-tools-server, with PostgreSQL's client (PostgresNIO) and the Foundation it \
            needs, which the commands of the package ps-tools leave out: there, ps-archive and \
            ps-search --db postgresql://… are exit 2, naming this command.

            --db postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE (or postgres://; \
            ?host=/socket/folder for a unix socket, ?sslmode=require for TLS) names the \
            database: tables ps_archive_messages and ps_archive_conversations, made on first \
            use, with a tsvector of each message's text, reasoning and tools. Leave the \
            password out of the URL and set PGPASSWORD to keep it out of the process list; \
            messages show the URL without it. A server that cannot be reached is exit 9, a \
            refused login exit 4, a database that does not exist exit 6.

            Storing is ps-archive's: message records, followed updates and deletions, and \
            conversation records, keyed by source and id; transactions committed as soon as no \
            more input is waiting; a line that is not a record reported and skipped (exit 3, \
            the others stored). See ps-archive(1).

            A search's QUERY is websearch_to_tsquery's syntax: words (all must occur), "a \
            phrase", OR, -word (not); no prefix* and no column filters. Hits are ranked by \
            ts_rank, best first, at most --limit (20); the "rank" field is minus it, so lower \
            is better, as in ps-search. --source, --conversation, --role, --since and --until \
            narrow them. See ps-search(1) for the records and the list.

            EXAMPLES:
              ps-archive --export | ps-archive-postgres --db postgresql://team@db/archive
              ps-archive-postgres --db postgresql://team@db/archive < all.ndjson
              ps-archive-postgres --db postgresql://team@db/archive --stats
              ps-archive-postgres search --db postgresql://team@db/archive 'launch -draft'

            \(ExitStatus.helpText([.success, .failure, .usage, .malformedInput, .authenticationNeeded, .notFound,
                                   .networkError, .brokenPipe]))
            """,
        version: ToolVersion.line,
        subcommands: [Archive.self, Search.self],
        defaultSubcommand: Archive.self)

    /// The archive `db` names; exit 2 for one that is not a PostgreSQL URL.
    static func open(_ db: String, create: Bool) throws -> PostgresArchive {
        guard ArchiveStores.isPostgres(db) else {
            throw ToolError(.usage, "--db takes a postgresql:// URL (an SQLite archive is ps-archive's)")
        }
        return try PostgresArchive(url: db, create: create)
    }
}

/// `ps-archive-postgres [archive]`: ps-archive's options.
struct Archive: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Store records from standard input, or write --stats or --export (the default).",
        usage: "ps-archive-postgres [archive] --db <url> [<options>] < records.ndjson")

    @OptionGroup var recordSize: RecordSizeOption

    @Option(name: .long, help: ArgumentHelp("The archive: postgresql://USER@HOST[:PORT]/DATABASE.", valueName: "url"))
    var db: String

    @OptionGroup var actions: ArchiveActions

    func run() throws {
        try actions.run(recordSize: recordSize, usage: "ps-history ... | ps-archive-postgres --db URL") { create in
            try PsArchivePostgres.open(db, create: create)
        }
    }
}

/// `ps-archive-postgres search`: ps-search --archive's options.
struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search the archive: the records and list of ps-search --archive.",
        usage: "ps-archive-postgres search --db <url> [<options>] <query>")

    @Argument(help: "The text to look for (websearch_to_tsquery's syntax).")
    var query: String

    @Option(name: .long, help: ArgumentHelp("The archive: postgresql://USER@HOST[:PORT]/DATABASE.", valueName: "url"))
    var db: String

    @Option(name: .long, help: ArgumentHelp("At most this many hits (default: 20).", valueName: "n"))
    var limit: Int?

    @Flag(name: .long, help: "Write NDJSON records even on a terminal.")
    var json = false

    @OptionGroup var filters: ArchiveFilters

    func validate() throws {
        if query.allSatisfy(\.isWhitespace) { throw ValidationError("the query is empty") }
        if let limit, limit < 1 { throw ValidationError("--limit takes 1 or more, not \(limit)") }
    }

    func run() throws {
        let store = try PsArchivePostgres.open(db, create: false)
        try ArchiveSearch(query: filters.query(query, limit: limit), table: !json && Terminal.isTerminal(1)).run(store)
    }
}
