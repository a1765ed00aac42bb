import PSCore
import PSSend
import Synchronization

/// --archive: each job's exchange kept in the archive as it ends (ExchangeArchive, one at a
/// time: the workers take turns). A failure to keep one does not stop the batch, whose
/// records are written all the same; the run ends saying how many were not kept and why
/// the first was not, with exit 12 among the jobs' statuses.
final class BatchArchive: Sendable {
    let origin: String
    private let tally = Mutex<(kept: Int, failed: Int, firstFailure: String?)>((0, 0, nil))
    private let turn = Mutex(())

    init(origin: String) { self.origin = origin }

    func keep(_ exchange: Exchange) {
        turn.withLock { _ in
            do {
                try ExchangeArchive.store(exchange)
                tally.withLock { $0.kept += 1 }
            } catch {
                let message = (error as? ToolError)?.message ?? ExchangeArchive.failure + "interrupted"
                tally.withLock { tally in
                    tally.failed += 1
                    if tally.firstFailure == nil { tally.firstFailure = message }
                }
            }
        }
    }

    /// "2 of 5 exchanges were not archived (the first: …)", nil when every one was.
    var failure: String? {
        tally.withLock { tally in
            guard let first = tally.firstFailure else { return nil }
            let total = tally.failed + tally.kept
            let reason = first.hasPrefix(ExchangeArchive.failure) ? String(first.dropFirst(ExchangeArchive.failure.count)) : first
            return "\(tally.failed) of \(total) exchange\(total == 1 ? " was" : "s were") not archived (the first: \(reason))"
        }
    }
}
