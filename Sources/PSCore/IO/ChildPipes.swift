#if canImport(Glibc)
import Glibc
#endif

/// A child process with its standard input and output on pipes, its standard error this
/// process's (or the output pipe's). Ended by `finish()`: one not yet waited for is stopped (SIGTERM), then waited for.
public final class ChildPipes {
    public let pid: pid_t
    public let output: ChunkReader
    private var input: Int32
    private var status: Int32?

    /// Runs `executable` with `arguments` (the first its name); with `errorsToOutput`, its
    /// standard error goes to the output pipe too, for a caller that reports it in its own words.
    public init(executable: String, arguments: [String], errorsToOutput: Bool = false) throws {
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0 else { throw Self.failure("pipe") }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0]); close(toChild[1])
            throw Self.failure("pipe")
        }
        // The child keeps only its ends, as its standard input and output.
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        if errorsToOutput { posix_spawn_file_actions_adddup2(&actions, fromChild[1], 2) }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let error = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard error == 0 else {
            close(toChild[1]); close(fromChild[0])
            throw ToolError(.failure, "cannot run \(executable): \(String(cString: strerror(error)))")
        }
        self.pid = pid
        input = toChild[1]
        output = ChunkReader(fd: fromChild[0], name: arguments.first ?? executable, ownsDescriptor: false)
    }

    /// Writes `bytes` to the child's standard input and closes it. A child that ended without
    /// reading it is seen by `wait()`.
    public func send(_ bytes: [UInt8]) {
        _ = FileDescriptorOutput.writeAll(fd: input, bytes)
        close(input)
        input = -1
    }

    /// The child's wait status, once it has ended.
    public func wait() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        status = raw
        return raw
    }

    public func finish() {
        if input >= 0 { close(input) }
        input = -1
        close(output.fd)
        if status == nil { kill(pid, SIGTERM) }
        _ = wait()
    }

    /// "exit 3", "signal 9".
    public static func describe(_ status: Int32) -> String {
        let signal = status & 0x7F
        return signal == 0 ? "exit \((status >> 8) & 0xFF)" : "signal \(signal)"
    }

    private static func failure(_ call: String) -> ToolError {
        ToolError(.failure, "\(call): \(String(cString: strerror(errno)))")
    }
}
