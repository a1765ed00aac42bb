import PSCore
import PSNet
#if canImport(Glibc)
import Glibc
#endif

/// One run of a tool's executable: its arguments, what goes to its standard input.
struct ToolProcess {
    let executable: String
    let arguments: [String]
    let input: [UInt8]
}

/// How a run ended, and what it wrote.
struct ToolProcessResult {
    enum End: Equatable {
        case exited(Int32)
        case signaled(Int32)
        /// Past the timeout: stopped (SIGKILL to its process group).
        case timedOut
        /// Its standard output passed the cap: stopped the same way.
        case outputTooLong
        case couldNotStart(String)
    }

    var end: End
    var output: [UInt8] = []
    /// The start of its standard error (at most `ToolProcesses.stderrKept` bytes).
    var errors: [UInt8] = []

    var succeeded: Bool { end == .exited(0) }
}

/// Runs tool executables side by side, each in a process group of its own with a plain
/// environment (never the credential), its standard input fed and its output read in one
/// poll loop: no threads. Each run is bounded in time (`timeout`) and in output
/// (`maxOutput` bytes of stdout, `stderrKept` of stderr): past either it is killed, with its
/// whole process group, and says so. Ctrl-C stops them all.
enum ToolProcesses {
    static let stderrKept = 64 * 1024

    /// The environment a tool runs with: what a program needs to run at all, nothing else.
    static func plainEnvironment(_ environment: [String: String] = Environment.current) -> [String: String] {
        let kept = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR"]
        var plain: [String: String] = [:]
        for name in kept { plain[name] = environment[name] }
        if plain["PATH"] == nil { plain["PATH"] = "/usr/local/bin:/usr/bin:/bin" }
        return plain
    }

    private final class Child {
        let pid: pid_t
        var input: [UInt8]
        var inputFD: Int32
        var outputFD: Int32
        var errorFD: Int32
        var result = ToolProcessResult(end: .exited(0))
        var status: Int32?
        var stopped: ToolProcessResult.End?

        init(pid: pid_t, input: [UInt8], fds: (Int32, Int32, Int32)) {
            self.pid = pid
            self.input = input
            (inputFD, outputFD, errorFD) = fds
        }

        var running: Bool { status == nil }

        func closeInput() {
            if inputFD >= 0 { close(inputFD) }
            inputFD = -1
        }

        func stop(_ why: ToolProcessResult.End) {
            guard stopped == nil, status == nil else { return }
            stopped = why
            kill(-pid, SIGKILL)
        }
    }

    static func run(_ runs: [ToolProcess], timeout: Double, maxOutput: Int, environment: [String: String],
                    whileWaiting: () -> Void = {}) throws -> [ToolProcessResult] {
        var results = Array(repeating: ToolProcessResult(end: .exited(0)), count: runs.count)
        var children: [(index: Int, child: Child)] = []
        for (index, run) in runs.enumerated() {
            do {
                children.append((index, try spawn(run, environment: environment)))
            } catch let error as ToolError {
                results[index].end = .couldNotStart(error.message)
            }
        }
        let deadline = MonotonicClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while children.contains(where: { $0.child.running }) {
            if Interrupt.isRequested {
                for (_, child) in children { child.stop(.signaled(SIGINT)) }
            } else if MonotonicClock.now >= deadline {
                for (_, child) in children { child.stop(.timedOut) }
            }
            var polled: [pollfd] = []
            var owners: [(Child, Int)] = []  // which child, which stream (0 in, 1 out, 2 err)
            for (_, child) in children {
                if child.inputFD >= 0 {
                    polled.append(pollfd(fd: child.inputFD, events: Int16(POLLOUT), revents: 0))
                    owners.append((child, 0))
                }
                for (stream, fd) in [(1, child.outputFD), (2, child.errorFD)] where fd >= 0 {
                    polled.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
                    owners.append((child, stream))
                }
            }
            if poll(&polled, nfds_t(polled.count), 100) > 0 {
                for (entry, (child, stream)) in zip(polled, owners) where entry.revents != 0 {
                    if stream == 0 {
                        feed(child)
                    } else {
                        drain(child, stream: stream, buffer: &buffer, maxOutput: maxOutput)
                    }
                }
            }
            for (_, child) in children where child.running && (child.stopped != nil || (child.outputFD < 0 && child.errorFD < 0)) {
                reap(child, blocking: child.stopped != nil)
            }
            whileWaiting()
        }
        for (index, child) in children {
            child.closeInput()
            for fd in [child.outputFD, child.errorFD] where fd >= 0 { close(fd) }
            var result = child.result
            let status = child.status ?? 0
            if let stopped = child.stopped {
                result.end = stopped
            } else if status & 0x7F != 0 {
                result.end = .signaled(status & 0x7F)
            } else {
                result.end = .exited((status >> 8) & 0xFF)
            }
            results[index] = result
        }
        if Interrupt.isRequested { throw ToolError(.interrupted, "interrupted while the tools ran; they were stopped") }
        return results
    }

    private static func feed(_ child: Child) {
        guard !child.input.isEmpty else { return child.closeInput() }
        let written = child.input.withUnsafeBytes { write(child.inputFD, $0.baseAddress, $0.count) }
        if written > 0 {
            child.input.removeFirst(written)
            if child.input.isEmpty { child.closeInput() }
        } else if written < 0 && errno != EAGAIN && errno != EINTR {
            child.closeInput()  // it stopped reading (EPIPE): what it did not read is left
        }
    }

    private static func drain(_ child: Child, stream: Int, buffer: inout [UInt8], maxOutput: Int) {
        let fd = stream == 1 ? child.outputFD : child.errorFD
        let count = read(fd, &buffer, buffer.count)
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
        guard count > 0 else {
            close(fd)
            if stream == 1 { child.outputFD = -1 } else { child.errorFD = -1 }
            return
        }
        if stream == 1 {
            guard child.result.output.count + count <= maxOutput else { return child.stop(.outputTooLong) }
            child.result.output.append(contentsOf: buffer[..<count])
        } else if child.result.errors.count < stderrKept {
            child.result.errors.append(contentsOf: buffer[..<min(count, stderrKept - child.result.errors.count)])
        }
    }

    private static func reap(_ child: Child, blocking: Bool) {
        var raw: Int32 = 0
        var done: pid_t
        repeat { done = waitpid(child.pid, &raw, blocking ? 0 : WNOHANG) } while done < 0 && errno == EINTR
        if done == child.pid {
            child.status = raw
            kill(-child.pid, SIGKILL)  // what it left running in its group goes with it
        }
    }

    private static func spawn(_ run: ToolProcess, environment: [String: String]) throws -> Child {
        let pipes = try ChildSpawn.pipes(3)
        let (input, output, errors) = (pipes[0], pipes[1], pipes[2])
        let pid: pid_t
        do {
            // A group of its own, so that a timeout stops what it started too; the default
            // signal handling back (ps-send ignores SIGPIPE).
            pid = try ChildSpawn.start(run.executable, arguments: [run.executable] + run.arguments, environment: environment,
                                       streams: [0: .descriptor(input.read), 1: .descriptor(output.write), 2: .descriptor(errors.write)],
                                       ownGroup: true)
        } catch {
            [input.write, output.read, errors.read].forEach { close($0) }
            throw ToolError(.failure, error.reason)
        }
        for fd in [input.write, output.read, errors.read] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        return Child(pid: pid, input: run.input, fds: (input.write, output.read, errors.read))
    }
}
