import PSCore
import PSSend
import PSNet
import PSPrompt
import Synchronization

/// What the run shared by every worker knows.
struct BatchSettings: @unchecked Sendable {
    var conversation: String?
    var model: String?
    var state: BatchState?
    var pacer: RatePacer?
    /// --retries and --max-retry-wait: how often a refused send goes again, and the longest
    /// Retry-After waited for.
    var retry: RetryPolicy
    /// How long a reply the server is still generating is waited for when read back.
    var replyWait: Double
    /// Retries are said on stderr when no progress line shows them.
    var warnsOnRetry: Bool
    /// --template's system prompt (OpenAI-compatible servers take one).
    var system: String?
    /// --schema (or the template's): each answer is checked, an invalid one sent back with
    /// what is wrong up to `repairs` times (--repair).
    var schema: JSONSchema?
    var repairs = 1
    var secrets = SecretCheck(mode: .refuse)
    /// --archive (or config.json's "archive"): where each exchange is kept as it ends.
    var archive: BatchArchive?
}

/// The counts of the run: the progress line on a terminal, the summary at the end, the exit status.
final class BatchProgress: Sendable {
    struct Counts {
        var total = 0
        var ok = 0
        var failed = 0
        var invalid = 0
        var skipped = 0
        var inFlight = 0
        var retrying = 0
        /// The exit status of each failed job, in the order they ended.
        var failures: [ExitStatus] = []
    }

    private let counts: Mutex<Counts>
    private let shown: Mutex<Double> = Mutex(0)
    private let started = MonotonicClock.now
    /// Whether a progress line is drawn (stderr is a terminal).
    let live: Bool

    init(total: Int, live: Bool) {
        var counts = Counts()
        counts.total = total
        self.counts = Mutex(counts)
        self.live = live
    }

    var snapshot: Counts { counts.withLock { $0 } }

    func skipped() { change { $0.skipped += 1 } }
    func started(_ delta: Int) { change { $0.inFlight += delta } }
    func retrying(_ delta: Int) { change { $0.retrying += delta } }
    func ended(_ status: String, exit: ExitStatus?) {
        change {
            $0.inFlight -= 1
            switch status {
            case "ok": $0.ok += 1
            case "invalid": $0.invalid += 1
            default: $0.failed += 1
            }
            if let exit { $0.failures.append(exit) }
        }
    }

    private func change(_ body: (inout Counts) -> Void) {
        let now = counts.withLock { counts -> Counts in
            body(&counts)
            return counts
        }
        guard live else { return }
        // At most ten redraws a second.
        let due = shown.withLock { last -> Bool in
            let time = MonotonicClock.now
            guard time - last >= 0.1 else { return false }
            last = time
            return true
        }
        if due { draw(now) }
    }

    private func draw(_ counts: Counts) {
        FileDescriptorOutput.writeAll(fd: 2, Array(("\r\u{1B}[K" + line(counts)).utf8))
    }

    private func line(_ c: Counts) -> String {
        let elapsed = max(MonotonicClock.now - started, 0.001)
        let finished = c.ok + c.failed + c.invalid
        let rate = Double(finished) / elapsed
        return "ps-batch: \(finished + c.skipped)/\(c.total) done (\(c.failed + c.invalid) failed), \(c.retrying) retrying, "
            + "\(c.inFlight) in flight, \(Self.oneDecimal(rate)) jobs/s"
    }

    /// Clears the progress line, then says in one line what the run did.
    func summary(interrupted: Bool) {
        let c = snapshot
        if live { FileDescriptorOutput.writeAll(fd: 2, Array("\r\u{1B}[K".utf8)) }
        let elapsed = MonotonicClock.now - started
        var parts = ["\(c.ok) ok", "\(c.failed) failed", "\(c.invalid) invalid"]
        if c.skipped > 0 { parts.append("\(c.skipped) done before") }
        let left = c.total - c.ok - c.failed - c.invalid - c.skipped
        if left > 0 { parts.append("\(left) not run") }
        Diagnostics.writeLine("ps-batch: \(c.total) job\(c.total == 1 ? "" : "s"): " + parts.joined(separator: ", ")
            + " in \(Self.oneDecimal(elapsed)) s" + (interrupted ? " (interrupted; --state keeps the rest for a rerun)" : ""))
    }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
