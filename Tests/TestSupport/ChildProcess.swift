import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with posix_spawn, with its standard streams on pipes.
///
/// Foundation's `Process` is not used anywhere in the tests: on Linux its `run()` crashes at
/// random ("Bad pointer dereference"), and its pipes are inherited by every child started at
/// the same time from another test. Here every pipe is close-on-exec in this process, the child
/// starts in a process group of its own with SIGPIPE and SIGINT at their default actions (as
/// under a shell), and every child still running when the test process exits is killed.
public final class ChildProcess: @unchecked Sendable {
    public enum Input { case null, pipe }

    public let pid: pid_t
    /// Write end of the child's stdin (`.pipe`), -1 once closed or for `.null`.
    public private(set) var stdinFD: Int32
    public let stdoutFD: Int32
    public let stderrFD: Int32

    private let lock = NSLock()
    private var exitStatus: Int32?

    /// Starts `path` with `arguments`. The child's stdout and stderr are pipes read through
    /// `stdoutFD`/`stderrFD`; its stdin is /dev/null or a pipe written through `stdinFD`.
    /// Its environment is always `Run.environment(environment)`: scratch HOME and XDG folders,
    /// nothing else of the developer's (giving it an environment Run built changes nothing).
    public static func spawn(
        _ path: String, _ arguments: [String], environment extra: [String: String] = [:], stdin: Input = .null
    ) throws -> ChildProcess {
        let environment = Run.environment(extra)
        ignoreBrokenPipe
        let inPipe = try stdin == .pipe ? makePipe() : nil
        let outPipe = try makePipe(), errPipe = try makePipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let inPipe {
            posix_spawn_file_actions_adddup2(&actions, inPipe.read, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe.write, 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe.write, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), empty = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGCHLD] { sigaddset(&defaults, signal) }
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        let argv = [path] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let result = withCStrings(argv) { argvPointers in
            withCStrings(envp) { envPointers in
                posix_spawn(&pid, path, &actions, &attributes, argvPointers, envPointers)
            }
        }
        // The child has its own copies; this process keeps only its ends.
        if let inPipe { close(inPipe.read) }
        close(outPipe.write)
        close(errPipe.write)
        guard result == 0 else {
            if let inPipe { close(inPipe.write) }
            close(outPipe.read)
            close(errPipe.read)
            throw ChildProcessError("cannot start \(path): \(String(cString: strerror(result)))")
        }
        let child = ChildProcess(pid: pid, stdin: inPipe?.write ?? -1, stdout: outPipe.read, stderr: errPipe.read)
        LiveChildren.shared.add(pid)
        return child
    }

    private init(pid: pid_t, stdin: Int32, stdout: Int32, stderr: Int32) {
        self.pid = pid
        self.stdinFD = stdin
        self.stdoutFD = stdout
        self.stderrFD = stderr
    }

    deinit {
        if isRunning {
            signalGroup(SIGKILL)
            wait()
        }
        closeStdin()
        close(stdoutFD)
        close(stderrFD)
    }

    /// Writes all of `data` to the child's stdin (blocking); false when the child stopped reading.
    @discardableResult
    public func write(_ data: Data) -> Bool {
        lock.lock()
        let fd = stdinFD
        lock.unlock()
        guard fd >= 0 else { return false }
        return data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
    }

    public func closeStdin() {
        lock.lock()
        defer { lock.unlock() }
        if stdinFD >= 0 {
            close(stdinFD)
            stdinFD = -1
        }
    }

    /// Sends `signal` to the child's whole process group (a shell and the commands it started).
    public func signalGroup(_ signal: Int32) { kill(-pid, signal) }

    /// Waits for the child to end: its exit status, or 128 + the signal that ended it.
    @discardableResult
    public func wait() -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        if let exitStatus { return exitStatus }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 {
            if errno != EINTR {
                exitStatus = -1
                return -1
            }
        }
        LiveChildren.shared.remove(pid)
        let status = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        exitStatus = status
        return status
    }

    /// True until the child has been waited for and found to have ended.
    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        if exitStatus != nil { return false }
        var raw: Int32 = 0
        let result = waitpid(pid, &raw, WNOHANG)
        guard result == pid else { return result == 0 }
        LiveChildren.shared.remove(pid)
        exitStatus = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        return false
    }

    /// Feeds `input` (then closes stdin), reads stdout and stderr to their end, and waits.
    /// Past `timeout` the whole process group is killed (the result then says so in stderr).
    public func collect(input: Data?, timeout: TimeInterval) -> ProcessResult {
        if let input {
            let writer = Thread { [self] in
                write(input)
                closeStdin()
            }
            writer.start()
        } else {
            closeStdin()
        }
        var out = Data(), err = Data()
        let timedOut = drain([(stdoutFD, { out.append($0) }), (stderrFD, { err.append($0) })], timeout: timeout)
        if timedOut {
            signalGroup(SIGKILL)
            err.append(Data("\n[test harness: killed after \(timeout) s]\n".utf8))
        }
        let status = wait()
        return ProcessResult(status: status, stdout: out, stderr: err)
    }

    /// Reads stdout until a newline arrives (returned with it), end of file, or `timeout`.
    public func readStdoutLine(timeout: TimeInterval) -> Data {
        let deadline = Date().addingTimeInterval(timeout)
        var line = Data()
        var byte: UInt8 = 0
        while deadline.timeIntervalSinceNow > 0 {
            var entry = pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(min(deadline.timeIntervalSinceNow, 1) * 1000))
            if ready < 0 && errno != EINTR { break }
            if ready <= 0 { continue }
            let n = read(stdoutFD, &byte, 1)
            if n == 1 {
                line.append(byte)
                if byte == 0x0A { break }
            } else if n == 0 || errno != EINTR {
                break
            }
        }
        return line
    }

    /// Reads every fd until end of file or `timeout`; true when the time ran out first.
    func drain(_ sinks: [(fd: Int32, sink: (Data) -> Void)], timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(min(timeout, 1e9))
        var open = sinks
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return true }
            var fds = open.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(remaining, 1) * 1000))
            if ready < 0 && errno != EINTR { return false }
            if ready <= 0 { continue }
            var closed: [Int32] = []
            for entry in fds where entry.revents != 0 {
                let n = read(entry.fd, &buffer, buffer.count)
                if n > 0 {
                    open.first { $0.fd == entry.fd }?.sink(Data(buffer[0..<n]))
                } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                    closed.append(entry.fd)
                }
            }
            open.removeAll { closed.contains($0.fd) }
        }
        return false
    }

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard systemPipe2(&fds, O_CLOEXEC) == 0 else {
            throw ChildProcessError("pipe2: \(String(cString: strerror(errno)))")
        }
        return (fds[0], fds[1])
    }
}

public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Writing to a child that stopped reading must fail with EPIPE, not kill the test process.
private let ignoreBrokenPipe: Void = { signal(SIGPIPE, SIG_IGN) }()

/// The children not yet waited for: killed (with their process groups) when the test process
/// exits, so a failing or crashing test leaves no server behind. A server also watches its
/// stdin and stops when this process is gone, whatever way it went (see LocalServer).
final class LiveChildren: @unchecked Sendable {
    static let shared: LiveChildren = {
        let children = LiveChildren()
        atexit { LiveChildren.shared.killAll() }
        return children
    }()

    private let lock = NSLock()
    private var pids = Set<pid_t>()

    func add(_ pid: pid_t) {
        lock.lock()
        pids.insert(pid)
        lock.unlock()
    }

    func remove(_ pid: pid_t) {
        lock.lock()
        pids.remove(pid)
        lock.unlock()
    }

    func killAll() {
        lock.lock()
        let all = pids
        lock.unlock()
        for pid in all { kill(-pid, SIGKILL) }
    }
}

/// glibc's pipe2(2), which its Swift module hides behind _GNU_SOURCE: the pipe is
/// close-on-exec from the start, so a child spawned at that moment by another thread
/// cannot inherit it (a pipe(2) then fcntl(2) leaves that window open).
@_silgen_name("pipe2")
private func systemPipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// Calls `body` with a NULL-terminated array of C strings that live as long as the call.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
}
