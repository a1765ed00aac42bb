import ArgumentParser
import PSArchive
import PSArchiveCommand
import PSCore
import PSNet
#if canImport(Glibc)
import Glibc
#endif

@main
struct PsSearch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-search",
        abstract: "Search the server, or an export of message records.",
        usage: "ps-search [<options>] <query>\n       ps-history ... | ps-search <query>\n       ps-search --in export.ndjson <query>\n       ps-search --archive [--db <file>] <query>",
        discussion: """
            On the server (the current PageSpace API: GET /api/search), writes one record per \
            result, best first, as the server describes it: \
            {"id":"page_1","title":"Project Notes","type":"page","pageType":"DOCUMENT",\
            "driveId":"drive_1","driveName":"Demo Drive","description":"document in Demo Drive",\
            "matchLocation":"title","relevanceScore":3879}; type is drive, page or user. The server \
            searches the drives the user owns, their pages (every word of QUERY in the title, or \
            any word in a document's text) and public user profiles; it takes a browser session \
            token only (an MCP key is refused: exit 4), answers a QUERY shorter than 2 characters \
            with nothing, and returns at most 50 results (20 unless --limit says).

            With --in FILE, or when standard input is a pipe or a file, searches message records \
            (ps-history's output, ps-parts --final's) offline instead, with no server: a message \
            matches when the text of its text parts contains QUERY, ignoring case. One record per \
            matching message, in input order: {"conversationId":"c1","messageId":"m1","role":"user","snippet":"…launch…"} (conversationId when the record \
            or its metadata has one, createdAt when it has one). A line that is not a JSON object \
            is exit 3, after the matches before it. Give </dev/null to search the server from a \
            script whose standard input is a pipe.

            With --archive (or --db FILE), searches the archive ps-archive(1) keeps, through its \
            full-text index; this is also the default when no server, profile or file is named \
            (no --server, --profile, PAGESPACE_API_URL or PS_PROFILE, and standard input is not \
            a pipe) and the default archive exists. QUERY is FTS5 syntax: words (all must \
            occur), "a phrase", prefix*, AND, OR, NOT, NEAR(a b, 5), and a column filter: \
            text: (text parts), reasoning:, tool: (tool names), tool_io: (tool input and output), \
            e.g. tool:weather. Results are ranked by bm25, best first, at most --limit (20). \
            --source, --conversation, --role, --since and --until (createdAt compared as text, \
            e.g. 2025-11 or 2025-11-01T09:00) narrow them. In a pipe, one record per hit: the \
            message record with "source", "conversation" (its record from ps-history --list \
            when archived, else {"id":…}), "rank" and "snippet" (matches in [brackets]; in a message record over 16 KB, or with \
            over 256 matches, the words around the first match), so ps-render shows the hits. On a terminal, a list: conversation title, date and role, \
            then the snippet with the matches in bold. A query that is not FTS5 syntax is exit 2, \
            and so is one that starts with * (FTS5 reads it as a special query, not a full-text \
            one). A --db file that is not an archive is exit 1. Ctrl-C or SIGTERM stops a \
            search: exit 130.

            An archive that a team shares in PostgreSQL is searched by ps-archive-postgres \
            search (ps-archive-postgres(1), package ps-tools-server), with the same filters, \
            records and list; --db postgresql://… here is exit 2, naming it.

            No match is exit 0 with nothing written. On a terminal, a table instead of records.

            EXAMPLES:
              ps-search "project notes"
              ps-search --limit 5 notes | jq -r .id
              ps-history --all | ps-search invoice
              ps-search --in archive.ndjson "launch date"
              ps-search --archive '"launch date" NOT draft' --role user --since 2025-11
              ps-search --archive 'tool:weather' | ps-render

            \(ConnectionOptions.environmentHelp)

            \(ExitStatus.helpText([.success, .failure, .usage, .malformedInput, .authenticationNeeded, .forbidden,
                                   .notFound, .rateLimited, .serverError, .networkError, .interrupted, .brokenPipe]))
            """,
        version: ToolVersion.line)

    @OptionGroup var recordSize: RecordSizeOption

    static func main() { runAsTool() }

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: "The text to look for.")
    var query: String

    @Option(name: .customLong("in"), help: ArgumentHelp(
        "Search this file of message records offline instead of the server ('-': standard input).",
        valueName: "file"), completion: .file())
    var file: String?

    @Option(name: .long, help: ArgumentHelp("At most this many server results, 1 to 50 (the server's default: 20).",
                                            valueName: "n"))
    var limit: Int?

    @Flag(name: .long, help: "Write NDJSON records even on a terminal.")
    var json = false

    @OptionGroup var archive: ArchiveOptions

    func validate() throws {
        if query.allSatisfy(\.isWhitespace) { throw ValidationError("the query is empty") }
        if archive.named {
            if file != nil { throw ValidationError("--archive and --in are separate searches") }
            if let limit, limit < 1 { throw ValidationError("--limit takes 1 or more, not \(limit)") }
            return
        }
        if archive.filters.any { throw ValidationError("--source, --conversation, --role, --since and --until apply to --archive") }
        if let limit, !(1...50).contains(limit) { throw ValidationError("--limit takes 1 to 50, not \(limit)") }
        if limit != nil && searchesExport { throw ValidationError("--limit applies to a server search, not to an export") }
    }

    /// `--in`, or standard input that is a pipe or a file rather than a terminal or /dev/null.
    var searchesExport: Bool {
        if file != nil { return true }
        var status = stat()
        guard fstat(0, &status) == 0 else { return false }
        let type = status.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFREG
    }

    func run() throws {
        recordSize.apply()
        Interrupt.install()
        let table = !json && Terminal.isTerminal(1)
        if let path = archive.path(serverNamed: connection.server != nil || connection.profile != nil, file: file) {
            if ArchiveStores.isPostgres(path) {
                throw ToolError(.usage, "a PostgreSQL archive (--db postgresql://…) is searched by "
                    + "ps-archive-postgres search --db URL QUERY (package ps-tools-server)")
            }
            let store = try SQLiteArchive(path: path, create: false)
            store.stopOnSignals()
            try ArchiveSearch(query: archive.filters.query(query, limit: limit), table: table).run(store)
            return
        }
        if searchesExport {
            try ExportSearch(query: query, table: table).run(path: file)
            return
        }
        let adapter = try connection.connect().adapter
        let searching = try Capabilities.require(adapter, SearchAPI.self, toDo: "search (ps-search --in FILE searches an export)")
        if query.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).count < 2 {
            Diagnostics.warning("the server searches only for 2 characters or more")
        }
        let results = try searching.search(query, limit: limit)
        let writer = RecordWriter()
        guard table else {
            for result in results { try writer.write(result) }
            return
        }
        guard !results.isEmpty else { return }
        var rows = TextTable(headers: ["TYPE", "ID", "TITLE", "WHERE"])
        for result in results {
            rows.add([result.displayText("type"), result.displayText("id"), result.displayText("title"),
                      result.displayText("description")])
        }
        try writer.writeText(rows.render(width: Terminal.width(fd: 1), empty: ""))
    }
}
