import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive lock on a state file, held until the process ends, so that two exports with
/// one state file (cron starting a run while a slow one is still going) take turns instead
/// of both exporting everything. The lock is `flock` on a companion file, `FILE.lock`: the
/// state file itself is replaced by rename, so a lock on it would be on an old inode. The
/// kernel releases the lock when its holder exits, `kill -9` included, so no lock is ever
/// left stale. The holder writes its pid into the lock file, for the message of the one waiting.
public final class StateFileLock {
    public let path: String
    private let fd: Int32

    /// Takes the lock, waiting up to `wait` seconds for another holder; `onWait` is called once
    /// when it has to wait (with the holder's pid, when known). `command` names the holder in
    /// the message of the one that gives up waiting.
    public init(statePath: String, wait: Double, command: String = "ps-history", onWait: (Int?) -> Void = { _ in }) throws {
        path = statePath + ".lock"
        try SecureFile.makeDirectory(SecureFile.parent(of: statePath))
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw ToolError(.failure, "cannot open the lock \(path): \(SecureFile.lastError())") }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK else {
                let reason = SecureFile.lastError()
                close(fd)
                throw ToolError(.failure, "cannot lock \(path): \(reason)")
            }
            let holder = Self.holder(fd)
            onWait(holder)
            guard Self.waitForLock(fd, seconds: wait) else {
                close(fd)
                if Interrupt.isRequested { throw ToolError(.interrupted, "interrupted while waiting for \(path)") }
                let who = holder.map { "another \(command) (pid \($0))" } ?? "another \(command)"
                let undone = command == "ps-history" ? "nothing was exported" : "nothing was done"
                throw ToolError(
                    .failure,
                    "\(who) is still using \(statePath) after \(Self.seconds(wait)); \(undone). "
                        + "Run again later, or wait longer with --lock-wait SECONDS")
            }
        }
        // Ours now: say who holds it.
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pwrite(fd, pid, pid.count, 0)
    }

    deinit { close(fd) }

    /// Polls for the lock every 50 ms (flock has no timeout of its own); Ctrl-C ends the wait.
    private static func waitForLock(_ fd: Int32, seconds: Double) -> Bool {
        var waited = 0.0
        while waited < seconds {
            if Interrupt.isRequested { return false }
            usleep(50_000)
            waited += 0.05
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
        }
        return false
    }

    private static func holder(_ fd: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return Int(String(decoding: buffer[..<count], as: UTF8.self).trimmingSpaces)
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
