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

/// A child process with its standard input and output on pipes, its standard error this
/// process's. Ended by `finish()`: one not yet waited for is stopped (SIGTERM), then waited for.
final class ChildPipes {
    let pid: pid_t
    let output: ChunkReader
    private var input: Int32
    private var status: Int32?

    init(executable: String, arguments: [String]) throws {
        let pipes = try ChildSpawn.pipes(2)
        let (toChild, fromChild) = (pipes[0], pipes[1])
        do {
            pid = try ChildSpawn.start(executable, arguments: arguments,
                                       streams: [0: .descriptor(toChild.read), 1: .descriptor(fromChild.write)])
        } catch {
            close(toChild.write); close(fromChild.read)
            throw ToolError(.failure, "cannot run \(executable): \(error.reason)")
        }
        input = toChild.write
        output = ChunkReader(fd: fromChild.read, name: PostgresHelper.name, ownsDescriptor: false)
    }

    /// Writes `bytes` to the child's standard input and closes it. A child that ended without
    /// reading it is seen by `wait()`.
    func send(_ bytes: [UInt8]) {
        _ = FileDescriptorOutput.writeAll(fd: input, bytes)
        close(input)
        input = -1
    }

    /// The child's wait status, once it has ended.
    func wait() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        status = raw
        return raw
    }

    func finish() {
        if input >= 0 { close(input) }
        input = -1
        close(output.fd)
        if status == nil { kill(pid, SIGTERM) }
        _ = wait()
    }

    /// "exit 3", "signal 9".
    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7F
        return signal == 0 ? "exit \((status >> 8) & 0xFF)" : "signal \(signal)"
    }
}
