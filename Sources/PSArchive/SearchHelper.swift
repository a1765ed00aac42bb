#if canImport(Glibc)
import Glibc
#endif
import PSCore

/// A PostgreSQL archive searched in a child process, `ps-archive-postgres --serve-search`
/// (PostgresHelper), which links PostgresNIO so that ps-search does not (NIO, Foundation and ICU
/// would cost every search's start-up). The request, URL and password included, goes to the
/// child's standard input, never its argv; each hit comes back as an NDJSON line as it is found,
/// and a failure as one last line `{"error":MESSAGE,"status":EXIT}` (SearchWire), which this
/// process reports as its own. Without the helper, exit 1.
public final class SearchHelper: ArchiveSearching {
    public static let argument = "--serve-search"
    let db: String
    let executable: String

    public init(db: String) throws {
        executable = try PostgresHelper.locate(for: "cannot search a PostgreSQL archive")
        self.db = db
    }

    /// A hit's line holds the message and conversation records and the snippet, each within
    /// the cap, escaped in JSON strings (at worst six bytes a byte).
    static var replyLimits: InputLimits {
        let (bytes, overflow) = InputLimits.current.maxRecordBytes.multipliedReportingOverflow(by: 18)
        return InputLimits(maxRecordBytes: overflow ? Int.max : bytes)
    }

    public func search(_ query: ArchiveQuery, _ body: (ArchiveHit) throws -> Void) throws {
        let child = try ChildPipes(executable: executable, arguments: [PostgresHelper.name, Self.argument])
        defer { child.finish() }
        child.send(SearchWire.line(SearchWire.request(db: db, query: query)))
        var failure: ToolError?
        try RecordLineReader(child.output, limits: Self.replyLimits).forEachLine { line, _ in
            switch try SearchWire.reply(line) {
            case .hit(let hit): try body(hit)
            case .failure(let error): failure = error
            }
        }
        let status = child.wait()
        if let failure { throw failure }
        let signal = status & 0x7F
        if signal == SIGINT || signal == SIGTERM { throw ExitRequest(.interrupted) }  // Ctrl-C reached it too
        guard status == 0 else {
            throw ToolError(.failure, "\(PostgresHelper.name) \(Self.argument) (\(executable)) failed: \(ChildPipes.describe(status))")
        }
    }
}
