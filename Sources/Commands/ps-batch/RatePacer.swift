import PSCore
import PSNet
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `--rate N/s` or `N/m`: the sends of all workers evenly spaced, never in a burst (`60/m` is one
/// send a second, not sixty at the start of each minute): each send takes the next free slot,
/// one interval after the one before.
final class RatePacer: Sendable {
    let interval: Double
    private let next = Mutex<Double>(0)

    init(interval: Double) { self.interval = interval }

    /// `N/s` or `N/m` (N a positive number) as the interval between sends; nil for anything else.
    static func interval(_ text: String) -> Double? {
        let pieces = text.split(separator: "/", omittingEmptySubsequences: false)
        guard pieces.count == 2, let count = Double(pieces[0]), count.isFinite, count > 0 else { return nil }
        switch pieces[1] {
        case "s": return 1 / count
        case "m": return 60 / count
        default: return nil
        }
    }

    /// Waits for this send's slot; false when a second Ctrl-C ends the wait.
    func waitForSlot() -> Bool {
        let slot = next.withLock { next -> Double in
            let slot = max(MonotonicClock.now, next)
            next = slot + interval
            return slot
        }
        return Pause.until(slot)
    }
}

enum Pause {
    /// Sleeps until `deadline` (MonotonicClock) in short steps; false when stopped by Ctrl-C
    /// (the second, see Interrupt.installCounting).
    static func until(_ deadline: Double) -> Bool {
        while true {
            if Interrupt.isRequested { return false }
            let left = deadline - MonotonicClock.now
            if left <= 0 { return true }
            usleep(useconds_t(min(left, 0.05) * 1_000_000))
        }
    }

    static func seconds(_ seconds: Double) -> Bool { until(MonotonicClock.now + seconds) }
}
