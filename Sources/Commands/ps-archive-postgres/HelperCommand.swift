import ArgumentParser
import PSArchive
import PSCore

/// ps-archive-postgres run under its own name: ps-search's search helper, and for a person
/// only --help and --version (anything else is exit 2, pointing at ps-archive).
struct HelperCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: PostgresHelper.name,
        abstract: "The PostgreSQL half of ps-archive: an internal helper, not a command to run.",
        usage: "\(PostgresHelper.name) --serve-search < request",
        discussion: """
            It alone links PostgreSQL's client (PostgresNIO), so that ps-archive and ps-search \
            start without it. ps-archive replaces itself with it when --db names a postgresql:// \
            URL (the same arguments: the same output and exit status), and ps-search \
            runs it with --serve-search, which reads one search request on standard input. It \
            is installed in lib/ps-tools beside the commands' bin folder. Run ps-archive instead.

            EXAMPLES:
              ps-archive --db postgresql://team@db.example.com/archive < all.ndjson
              ps-archive --db postgresql://team@db.example.com/archive --stats
              ps-search --db postgresql://team@db.example.com/archive "launch date"
              ps-archive-postgres --version

            \(ExitStatus.helpText([.success, .failure, .usage, .authenticationNeeded, .notFound, .networkError]))
            """,
        version: ToolVersion.line)

    @Flag(name: .customLong("serve-search"), help: "Answer one search request from ps-search, read on standard input.")
    var serveSearch = false

    func run() throws {
        guard serveSearch else {
            throw ToolError(.usage, "an internal helper of ps-archive and ps-search: run ps-archive --db postgresql://… instead")
        }
        try SearchService.run()
    }
}
