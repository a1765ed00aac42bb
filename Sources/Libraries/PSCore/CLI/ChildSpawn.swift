#if canImport(Glibc)
import Glibc
#endif

/// Starting a child process (posix_spawn): the one place that turns arguments and an
/// environment into C strings. Used for tools, helpers (ps-mcp, ps-archive-postgres) and the
/// browser.
public enum ChildSpawn {
    /// What a child's standard stream is when it is not this process's: a descriptor of this
    /// process, or /dev/null.
    public enum Stream {
        case descriptor(Int32)
        case null
    }

    /// Why a child could not be started: the system's words for it.
    public struct Failure: Error {
        public let reason: String
    }

    /// `count` pipes whose ends are all closed on exec, so that a child gets an end only as a
    /// standard stream. On failure none is left open.
    public static func pipes(_ count: Int) throws -> [(read: Int32, write: Int32)] {
        var made: [(read: Int32, write: Int32)] = []
        for _ in 0..<count {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else {
                let reason = String(cString: strerror(errno))
                for pair in made { close(pair.read); close(pair.write) }
                throw ToolError(.failure, "pipe: \(reason)")
            }
            for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            made.append((ends[0], ends[1]))
        }
        return made
    }

    /// Starts `executable` with `arguments` (its argv, its name first) and `environment` (nil:
    /// this process's), its standard streams 0, 1, 2 as `streams` says (those not named are this
    /// process's). The descriptors handed over are closed here once the child has them, started
    /// or not. `ownGroup`: a process group of its own, so that what it starts can be stopped
    /// with it, and SIGPIPE's default action back (a caller may ignore it).
    public static func start(
        _ executable: String, arguments: [String], environment: [String: String]? = nil,
        streams: [Int32: Stream] = [:], ownGroup: Bool = false
    ) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, stream) in streams.sorted(by: { $0.key < $1.key }) {
            switch stream {
            case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, target)
            case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if ownGroup {
            var defaults = sigset_t()
            sigemptyset(&defaults)
            sigaddset(&defaults, SIGPIPE)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setpgroup(&attributes, 0)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))
        }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { environment in
            environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { for pointer in argv + (envp ?? []) { free(pointer) } }
        var pid = pid_t()
        let error: Int32
        if let envp {
            error = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        } else {
            error = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        }
        var handedOver = Set<Int32>()
        for case .descriptor(let fd) in streams.values where handedOver.insert(fd).inserted { close(fd) }
        guard error == 0 else { throw Failure(reason: String(cString: strerror(error))) }
        return pid
    }
}
