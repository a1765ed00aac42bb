#if canImport(Glibc)
import Glibc
#endif
import PSCore

/// Ctrl-C handling for network commands: SIGINT only sets a flag, and the transfer's progress
/// callback (which libcurl calls at least once a second, also while a stream is idle) sees it and
/// aborts the transfer. The command then finishes cleanly: what it received is already written,
/// and it can still tell the server to stop.
public enum Interrupt {
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0

    /// Installs the SIGINT and SIGTERM handlers.
    public static func install() {
        StopSignals.handle { _ in Interrupt.flag = 1 }
    }

    public static var isRequested: Bool { flag != 0 }

    nonisolated(unsafe) private static var signals: sig_atomic_t = 0

    /// For a command that lets the work in flight finish after a first Ctrl-C (ps-batch): the
    /// signals are counted (`signalCount`), and only from the second on do transfers stop.
    public static func installCounting() {
        StopSignals.handle { _ in
            Interrupt.signals += 1
            if Interrupt.signals >= 2 { Interrupt.flag = 1 }
        }
    }

    public static var signalCount: Int { Int(signals) }

    /// Set by a command that may sit idle on the network for long (a follower): a transfer
    /// then also stops when stdout's reader has gone, as `tail -f | head` ends without waiting
    /// for the next line.
    nonisolated(unsafe) public static var watchesOutput = false

    /// True when stdout is a pipe whose reader has closed it.
    public static var outputReaderGone: Bool {
        var entry = pollfd(fd: 1, events: 0, revents: 0)
        return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLERR) != 0
    }

    /// Runs from the transfer's progress callback (several times a second, also while the
    /// stream is idle): a live display draws what waits to be drawn.
    nonisolated(unsafe) public static var whileWaiting: (() -> Void)?

    /// Whether a transfer should stop now.
    static var stopsTransfers: Bool { isRequested || (watchesOutput && outputReaderGone) }

    /// Tests and the abort request after an interrupt use this to carry on.
    public static func clear() { flag = 0 }
}
