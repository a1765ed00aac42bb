import Dispatch
import PSCore
import PSNet
import PSPrompt
import Synchronization

/// Runs the lanes of jobs on `workers` threads, each with its own connection (one adapter a
/// thread), and writes each job's `batch-result` record the moment the job ends.
final class BatchRunner: @unchecked Sendable {
    let settings: BatchSettings
    let progress: BatchProgress
    private let jobs: BatchJobs
    private let lanes: Mutex<ArraySlice<[Int]>>
    private let writer = Mutex(RecordWriter())
    /// Why the run stopped early: the reader of the output went away, or writing failed.
    private let stopped = Mutex<Error?>(nil)

    init(jobs: BatchJobs, lanes: [[Int]], settings: BatchSettings, progress: BatchProgress) {
        self.jobs = jobs
        self.lanes = Mutex(lanes[...])
        self.settings = settings
        self.progress = progress
    }

    /// Runs every lane; `adapters` gives each worker its own.
    func run(senders: [JobSender]) throws {
        let group = DispatchGroup()
        for (index, sender) in senders.enumerated() {
            // A serial queue of its own per worker: each gets a thread of its own, blocked in
            // libcurl while its job is on the network.
            let box = SenderBox(sender: sender)
            DispatchQueue(label: "ps-batch.worker.\(index)").async(group: group) { self.work(box.sender) }
        }
        group.wait()
        if let error = stopped.withLock({ $0 }) { throw error }
    }

    private var shouldStop: Bool {
        Interrupt.signalCount > 0 || stopped.withLock { $0 != nil }
    }

    private func work(_ sender: JobSender) {
        while !shouldStop, let lane = lanes.withLock({ $0.popFirst() }) {
            for index in lane {
                if shouldStop { return }
                do {
                    try runJob(try jobs.job(index), sender)
                } catch is JobAborted {
                    return
                } catch {
                    stopped.withLock { if $0 == nil { $0 = error } }
                    return
                }
            }
        }
    }

    private func runJob(_ job: BatchJob, _ sender: JobSender) throws {
        let previous = settings.state?[job.id]
        if let previous, previous.status == "ok" {
            progress.skipped()
            return
        }
        progress.started(+1)
        let outcome: JobOutcome
        do {
            outcome = try sender.run(job, previous: previous)
        } catch {
            progress.started(-1)
            throw error
        }
        let status = outcome.status
        try writer.withLock { try $0.write(Self.record(job, outcome, status: status)) }
        try settings.state?.record(job.id, BatchState.Entry(
            status: status, conversation: outcome.conversation, messageID: outcome.messageID, attempts: outcome.attempts,
            repairs: outcome.repairs))
        progress.ended(status, exit: outcome.error?.status)
    }

    /// `{"type":"batch-result","id",status,text,message,conversation,attempts,usage}`; a failed
    /// job has `error` (one line) and `exit` (ps-send's status for it) instead of the reply.
    static func record(_ job: BatchJob, _ outcome: JobOutcome, status: String) -> JSON {
        var record = JSONObject()
        record["type"] = "batch-result"
        record["id"] = .string(job.id)
        record["status"] = .string(status)
        if let reply = outcome.reply {
            record["text"] = .string(JobSender.text(of: reply))
            record["message"] = reply
        }
        if let error = outcome.error {
            record["error"] = .string(TerminalSafeText.sanitize(error.message))
            record["exit"] = .integer(Int64(error.status.rawValue))
        }
        if let answer = outcome.answer {
            if answer.isValid {
                record["json"] = answer.value
            } else {
                let after = outcome.repairs == 0 ? "" : " after \(outcome.repairs) repair\(outcome.repairs == 1 ? "" : "s")"
                record["error"] = .string("the answer does not match the schema\(after): \(answer.firstError)")
                record["errors"] = .array(answer.violations.map { .string($0.description) })
                record["exit"] = .integer(Int64(ExitStatus.malformedInput.rawValue))
            }
            record["repairs"] = .integer(Int64(outcome.repairs))
        }
        record["conversation"] = outcome.conversation.map(JSON.string)
        record["attempts"] = .integer(Int64(outcome.attempts))
        if let usage = outcome.reply?["metadata"]?["usage"] { record["usage"] = usage }
        return .object(record)
    }
}

/// A worker's sender, handed to its thread (used by that thread only).
private struct SenderBox: @unchecked Sendable {
    let sender: JobSender
}
