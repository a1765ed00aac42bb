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
            start without it. ps-archive replaces itself with it for an archive named by --db \
            postgresql://… (the same arguments: the same output and exit status), and ps-search \
            runs it with --serve-search, which reads one search request on standard input. It \
            is installed in lib/ps-tools beside the commands' bin folder. Run ps-archive instead.

            \(ExitStatus.helpText([.success, .failure, .usage, .authenticationNeeded, .notFound, .networkError]))
            """,
        version: ToolVersion.line)

    /// The whole help (the commands' one-screen glance would point at a man page, and a helper
    /// has none), for --help and -h anywhere in `arguments`; false for other arguments.
    static func answerHelp(_ arguments: [String]) -> Bool {
        guard arguments.contains(where: { $0 == "--help" || $0 == "-h" }) else { return false }
        _ = FileDescriptorOutput.writeAll(fd: 1, Array((helpMessage(columns: 80) + "\n").utf8))
        return true
    }

    @Flag(name: .customLong("serve-search"), help: "Answer one search request from ps-search, read on standard input.")
    var serveSearch = false

    func run() throws {
        guard serveSearch else {
            throw ToolError(.usage, "an internal helper of ps-archive and ps-search: run ps-archive --db postgresql://… instead")
        }
        try SearchService.run()
    }
}
