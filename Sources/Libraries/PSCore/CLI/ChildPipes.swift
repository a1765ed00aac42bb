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
        let pipes = try ChildSpawn.pipes(2)
        let (toChild, fromChild) = (pipes[0], pipes[1])
        var streams: [Int32: ChildSpawn.Stream] = [0: .descriptor(toChild.read), 1: .descriptor(fromChild.write)]
        if errorsToOutput { streams[2] = .descriptor(fromChild.write) }
        do {
            pid = try ChildSpawn.start(executable, arguments: arguments, streams: streams)
        } catch {
            close(toChild.write); close(fromChild.read)
            throw ToolError(.failure, "cannot run \(executable): \(error.reason)")
        }
        input = toChild.write
        output = ChunkReader(fd: fromChild.read, name: arguments.first ?? executable, ownsDescriptor: false)
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
}
