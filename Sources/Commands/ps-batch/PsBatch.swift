import ArgumentParser
import PSCore
import PSSend
import PSNet
import PSPrompt

@main
struct PsBatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-batch",
        abstract: "Send many messages, each answered once: NDJSON jobs in, one batch-result record per job out; concurrent, rate-paced, resumable.",
        discussion: """
            Each input line is a job, {"id":"j1","message":"..."}, optionally with the \
            "conversation" to continue and the "model" to use. Every line is read and checked \
            before anything is sent (the jobs are then kept in a temporary file in $TMPDIR, not \
            in memory): a line that is not a JSON object, a job without an id or \
            a message, or an id given twice is exit 3 naming the line; a message holding what \
            looks like a secret is exit 2, as in ps-send (--redact, --allow-secrets).

            Each job goes to a new conversation of its own (so that no job takes over \
            another's reply), or to its "conversation"; jobs naming one conversation run one \
            at a time in input order, and --conversation ID sends every job to ID in order. A \
            batch-result record (ps-ndjson(5)) is written and flushed as each job ends, in the \
            order they end: status ok with the reply's text, message, conversation, attempts \
            and usage; or failed, with error (one line) and exit (the status ps-send would \
            have given).

            --template FILE|NAME makes each job's message from a template (as ps-send \
            --template: {{name}} placeholders, \\{{ for a literal {{, a front matter's system, \
            model and schema), filled from the job's "vars" object instead of a "message"; a \
            placeholder without a value or a value without a placeholder is exit 2 naming \
            the job, before anything is sent. --schema FILE|JSON (or the template's) checks \
            each answer here, as ps-send --schema does: asked for natively where the server \
            takes it (response_format), in words after the message elsewhere; an invalid \
            answer is sent back with what is wrong, in the same conversation, up to --repair \
            times (default 1). The record of a valid answer has its value in "json"; still \
            invalid, status invalid with "errors", the text kept, and exit 3.

            --concurrency N jobs are in flight at once (default 1). --rate N/s or N/m paces \
            the sends of all of them, evenly spaced: 60/m is one send a second, never sixty \
            at once. A 429 waits for its Retry-After (at most --max-retry-wait), a 5xx or a \
            connection refused or broken backs off (0.5 s, doubling up to 8 s), and the \
            message is sent again, up to --retries times (default 3, PS_RETRIES).

            --state FILE keeps each job's progress (locked for the run; each change one \
            appended line, the line that names the conversation on the disk before the \
            message goes; the file is rewritten atomically when a run starts). A rerun skips \
            the jobs that are done and runs the rest, failed ones included. On a server that \
            keeps conversations (PageSpace, its /api/v1, the Gemini API, Lucid) a message the \
            server accepted is never sent again: the reply is read back from the \
            conversation, waiting (up to --idle-timeout) while it is still being generated. \
            On another OpenAI-compatible server nothing is kept, so a job cut mid-reply is \
            sent again (attempts 2). So after a kill -9 at any moment, a rerun gives each job \
            an ok result, and no message twice in any conversation the server keeps. A job \
            whose result was written in the instant before the kill, before its state was, \
            gets a second result from the rerun, with the same reply read back.

            Progress (done, failed, retrying, in flight, jobs a second) is shown on stderr \
            when it is a terminal; a one-line summary ends every run. Ctrl-C starts no new \
            job and lets those in flight finish; a second Ctrl-C stops them too (they get no \
            record, and --state lets a rerun finish them). Exit status 0 when every job is ok \
            (or was done before); when some are not, the status they share (3 for schema-\
            invalid, 4 when the credential was refused, 7 rate limited, 8 server error, 9 \
            network...), or 1 when they differ; 130 after Ctrl-C.

            --archive (or "archive": true in config.json; --no-archive wins) keeps each \
            exchange in the archive as it ends, as ps-send --archive does: each message sent \
            (a repair too) and its whole reply, stored by ps-archive, one exchange at a time. \
            It is off by default. An exchange the archive cannot take stops nothing: every \
            record is written, then one line says how many exchanges were not archived and \
            why the first was not, and 12 counts among the statuses above.

            EXAMPLES:
              ps-batch jobs.ndjson > results.ndjson
              jq -c '{id: .file, message: ("Summarise: " + .text)}' docs.ndjson \\
                  | ps-batch --concurrency 4 --rate 30/m --state jobs.state >> out.ndjson
              ps-batch --conversation ckv4f9k2m0000a1b2c3d4e5f6 steps.ndjson \\
                  | jq -r 'select(.status == "ok") | .text'

            \(ConnectionOptions.environmentHelp)

            \(ExitStatus.helpText([.success, .failure, .usage, .malformedInput, .authenticationNeeded, .forbidden, .notFound,
                                   .rateLimited, .serverError, .networkError, .incomplete, .assistantAsks, .notArchived,
                                   .interrupted, .brokenPipe]))
            """,
        version: ToolVersion.line)

    static func main() { runAsTool() }

    @OptionGroup var recordSize: RecordSizeOption

    @OptionGroup var connection: ConnectionOptions

    @Option(name: .long, help: ArgumentHelp("How many jobs are in flight at once (default 1, at most 64).", valueName: "n"))
    var concurrency = 1

    @Option(name: .long, help: ArgumentHelp(
        "The most sends, evenly spaced. N/s or N/m across all jobs in flight: 60/m is one a second.", valueName: "rate"))
    var rate: String?

    @Option(name: .long, help: ArgumentHelp(
        "Keep each job's progress in this file. A rerun skips the jobs done and never sends an accepted message again.",
        valueName: "file"))
    var state: String?

    @Option(name: .long, help: ArgumentHelp(
        "Send every job to this conversation, one at a time, in order. By default each job gets a new one.", valueName: "id"),
        completion: LocalCompletions.conversations, transform: IDArgument.nonEmpty)
    var conversation: String?

    @Option(name: .long, help: ArgumentHelp(
        "The model for jobs that name none. Default: the profile's (ps-auth set-model).", valueName: "name"))
    var model: String?

    @OptionGroup var prompt: TemplateOptions

    @OptionGroup var archive: ArchiveOption

    @OptionGroup var secretOptions: SecretOptions

    @Argument(help: ArgumentHelp("The jobs, NDJSON (default: stdin).", valueName: "file"), completion: .file())
    var file: String?

    func validate() throws {
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be between 1 and 64") }
        if let rate, RatePacer.interval(rate) == nil {
            throw ValidationError("--rate must be N/s or N/m with N a positive number (60/m is one send a second), not \(rate)")
        }
    }

    func run() throws {
        recordSize.apply()
        let path = file == "-" ? nil : file
        if path == nil {
            try Terminal.refuseInteractiveStdin(usage: "usage: ps-batch JOBS.ndjson, or: ps-batch < JOBS.ndjson")
        }
        let secrets = secretOptions.check
        let (template, schema, repairs) = try prompt.load()
        let system = try template?.system.map { try secrets.pass($0, from: "\(template!.source)'s system") }
        let jobs = try BatchInput.read(path, secrets: secrets, template: template)
        let lanes = jobs.lanes(sharedConversation: conversation)
        let batchState = try state.map(BatchState.open)
        let first = try connection.connect()
        let http = first.adapter.client.http.options
        let live = Terminal.isTerminal(2)
        let settings = BatchSettings(
            conversation: conversation, model: model ?? template?.model ?? first.session.profileModel, state: batchState,
            pacer: rate.flatMap(RatePacer.interval).map(RatePacer.init), retry: http.retry,
            replyWait: Double(http.idleTimeout), warnsOnRetry: !live, system: system, schema: schema,
            repairs: repairs, secrets: secrets,
            archive: archive.isOn(for: first.session) ? BatchArchive(origin: first.session.recordOrigin) : nil)
        let progress = BatchProgress(total: jobs.count, live: live)
        // One connection a worker: libcurl's handle and the adapter are one thread's.
        let workers = min(concurrency, max(lanes.count, 1))
        var senders = [JobSender(adapter: first.adapter, settings: settings, progress: progress)]
        while senders.count < workers {
            let client = HTTPClient(options: http)
            client.onRetry = { Diagnostics.warning($0) }
            let adapter = APIAdapters.make(first.adapter.kind, client: APIClient(session: first.session, http: client))
            senders.append(JobSender(adapter: adapter, settings: settings, progress: progress))
        }
        Interrupt.installCounting()
        let runner = BatchRunner(jobs: jobs, lanes: lanes, settings: settings, progress: progress)
        do {
            try runner.run(senders: senders)
        } catch let request as ExitRequest where request.status == .brokenPipe {
            throw request  // quietly, like every command whose reader left
        } catch {
            progress.summary(interrupted: false)
            throw error
        }
        let interrupted = Interrupt.signalCount > 0
        progress.summary(interrupted: interrupted)
        let counts = progress.snapshot
        if interrupted && counts.ok + counts.failed + counts.invalid + counts.skipped < counts.total {
            throw ExitRequest(.interrupted)
        }
        var failures = counts.failures + Array(repeating: .malformedInput, count: counts.invalid)
        if let notArchived = settings.archive?.failure {
            Diagnostics.error(notArchived)
            failures.append(.notArchived)
        }
        if let status = Self.exitStatus(failures) {
            throw ExitRequest(status)
        }
    }

    /// nil when nothing failed; the status every failure shares; else 1.
    static func exitStatus(_ failures: [ExitStatus]) -> ExitStatus? {
        guard let first = failures.first else { return nil }
        return failures.allSatisfy { $0 == first } ? first : .failure
    }
}
