import PSCore
import PSNet
import PSPrompt
import PSSend
#if canImport(Glibc)
import Glibc
#endif

/// What came of one job: the reply (status ok, or invalid when its answer does not match the
/// schema), or the error that ended it (failed).
struct JobOutcome {
    var reply: JSON?
    var error: ToolError?
    var conversation: String?
    var messageID: String?
    var attempts: Int
    /// With --schema: the last answer, read and checked, and how often one was sent back.
    var answer: SchemaAnswer?
    var repairs = 0

    var status: String { error != nil ? "failed" : answer?.isValid == false ? "invalid" : "ok" }
}

/// The second Ctrl-C stopped the job in flight: it gets no result, and its state stays as it
/// was (a rerun reads its reply back, or sends it).
struct JobAborted: Error {}

/// Sends one job through an adapter (each worker has its own: a connection is one thread's)
/// and waits for its whole reply, sending again only what the server did not take.
final class JobSender {
    let adapter: APIAdapter
    let settings: BatchSettings
    let progress: BatchProgress

    init(adapter: APIAdapter, settings: BatchSettings, progress: BatchProgress) {
        self.adapter = adapter
        self.settings = settings
        self.progress = progress
    }

    /// Whether the server keeps the conversation (PageSpace, its /api/v1, Gemini, Lucid): then a
    /// message it accepted is never sent again, its reply is read back from the conversation.
    var serverKeepsConversations: Bool { !adapter.keepsTurns }

    private enum Attempt {
        case reply(JSON)
        /// A 429, a 5xx: nothing was processed, so it may go again (after `retryAfter`).
        case refused(ToolError, retryAfter: Double?)
        /// The connection broke after the request went: the server may have taken it.
        case cut(ToolError)
        case failed(ToolError)
    }

    func run(_ job: BatchJob, previous: BatchState.Entry?) throws -> JobOutcome {
        var outcome = JobOutcome(reply: nil, error: nil, conversation: nil, messageID: nil, attempts: previous?.attempts ?? 0,
                                 repairs: previous?.repairs ?? 0)
        do {
            let conversation: String
            var messageID: String, text: String, reply: JSON?
            if let previous, let known = previous.conversation, let id = previous.messageID {
                (conversation, messageID) = (known, id)
                outcome.conversation = conversation
                outcome.messageID = messageID
                text = try turnText(job, repairs: outcome.repairs, conversation: conversation)
                // A job a run before began: its message may be in the conversation already.
                if serverKeepsConversations {
                    reply = try readBack(text, conversation: conversation, messageID: messageID)
                }
            } else {
                conversation = try newConversation(for: job)
                messageID = RandomID.messageID()
                outcome.conversation = conversation
                outcome.messageID = messageID
                text = try firstText(job)
            }
            while true {
                let sentAt = Exchange.now()
                let answer = try reply ?? send(job, text: text, conversation: conversation, messageID: messageID, outcome: &outcome)
                outcome.reply = answer
                if let archive = settings.archive {
                    archive.keep(Exchange(
                        message: UserMessage.make(text: text, id: messageID), reply: answer, conversationID: conversation,
                        model: job.model ?? settings.model, origin: archive.origin, sentAt: sentAt))
                }
                guard let schema = settings.schema else { return outcome }
                let checked = SchemaAnswer(text: Self.text(of: answer), schema: schema)
                outcome.answer = checked
                if checked.isValid || outcome.repairs >= settings.repairs { return outcome }
                // Sent back once more, in the same conversation, with what is wrong.
                outcome.repairs += 1
                text = try settings.secrets.pass(checked.repairMessage(), from: "the repair message")
                messageID = RandomID.messageID()
                outcome.messageID = messageID
                reply = nil
            }
        } catch let error as ToolError {
            outcome.error = error
        }
        return outcome
    }

    /// The job's message, with the schema asked for in words where the server takes none natively.
    private func firstText(_ job: BatchJob) throws -> String {
        guard let schema = settings.schema, !adapter.takesResponseSchema else { return job.text }
        return job.text + "\n\n" + (try settings.secrets.pass(SchemaAnswer.instruction(schema), from: "--schema"))
    }

    /// The message of a job's turn `repairs`: the first, or the one that sent back the answer
    /// before it (made again from that answer, the conversation's last reply).
    private func turnText(_ job: BatchJob, repairs: Int, conversation: String) throws -> String {
        guard repairs > 0, let schema = settings.schema else { return try firstText(job) }
        let messages = try adapter.historyPage(.global(conversationID: conversation), query: historyQuery).messages
        guard let last = messages.last(where: { $0["role"]?.stringValue == "assistant" }) else {
            throw ToolError(.notFound, "the conversation \(TerminalSafeText.quoted(conversation)) holds no answer to send back")
        }
        return try settings.secrets.pass(SchemaAnswer(text: Self.text(of: last), schema: schema).repairMessage(), from: "the repair message")
    }

    private var historyQuery: HistoryQuery {
        adapter.historyPaging == .newestFirstCursor ? HistoryQuery(limit: 50) : HistoryQuery(limit: 500, offset: 0)
    }

    private func newConversation(for job: BatchJob) throws -> String {
        if let named = job.conversation ?? settings.conversation {
            try adapter.requireConversation(named)
            return named
        }
        try adapter.checkMessage(try firstText(job))
        let new = NewConversation(title: NewConversation.title(fromMessage: job.text), model: job.model ?? settings.model)
        guard let id = try adapter.createConversation(new) else {
            throw ToolError(.usage, "the \(adapter.kind.rawValue) API cannot create conversations: name one with --conversation")
        }
        return id
    }

    /// Sends until the reply is whole, the retries are spent or the error is one that sending
    /// again cannot mend. The state says `sending` (with the conversation) before each send.
    private func send(_ job: BatchJob, text: String, conversation: String, messageID: String, outcome: inout JobOutcome) throws -> JSON {
        let target = SendTarget.global(conversationID: conversation)
        let message = UserMessage.make(text: text, id: messageID)
        var options = SendOptions(model: job.model ?? settings.model)
        options.system = settings.system
        if adapter.takesResponseSchema { options.responseSchema = settings.schema?.json }
        var retry = 0
        while true {
            outcome.attempts += 1
            try settings.state?.record(job.id, BatchState.Entry(
                status: "sending", conversation: conversation, messageID: messageID, attempts: outcome.attempts,
                repairs: outcome.repairs), durable: true)
            if let pacer = settings.pacer, !pacer.waitForSlot() { throw JobAborted() }
            let error: ToolError, retryAfter: Double?
            switch try attempt(adapter.sendRequest(target, message: message, options: options), target: target) {
            case .reply(let reply):
                if adapter.keepsTurns { try adapter.keepTurn(target, message: message, reply: reply) }
                return reply
            case .failed(let failure):
                throw failure
            case .refused(let failure, let after):
                (error, retryAfter) = (failure, after)
            case .cut(let failure):
                // The server has the message: it is never sent again, its reply is read back.
                if serverKeepsConversations, let reply = try readBack(text, conversation: conversation, messageID: messageID) {
                    return reply
                }
                (error, retryAfter) = (failure, nil)
            }
            retry += 1
            guard let delay = settings.retry.delay(beforeRetry: retry, retryAfter: retryAfter) else { throw error }
            progress.retrying(+1)
            defer { progress.retrying(-1) }
            if settings.warnsOnRetry {
                Diagnostics.warning("job \(JSON.string(job.id).serialized()): \(error.message); sending again in \(Self.format(delay)) "
                    + "(\(retry)/\(settings.retry.maxRetries))")
            }
            guard Pause.seconds(delay) else { throw JobAborted() }
        }
    }

    /// One send and its whole answer, rebuilt as ps-parts --final would (any stream format).
    private func attempt(_ request: HTTPRequest, target: SendTarget) throws -> Attempt {
        var request = request
        let collector = ReplyCollector()
        var answer = try transfer(request, into: collector)
        if answer.head?.status == 401, let renewed = try adapter.client.renewedRequest(request) {
            request = renewed  // the legacy API's 15-minute token, renewed once
            answer = try transfer(request, into: collector)
        }
        if let cut = answer.cut { return cut }
        guard let head = answer.head, head.isSuccess else {
            let response = HTTPResponse(head: answer.head ?? HTTPResponseHead(status: 0, headers: []), body: answer.errorBody)
            let error = adapter.client.refusal(response, request: request)
            guard RetryPolicy.isRetryable(status: response.status) else { return .failed(error) }
            return .refused(error, retryAfter: head(answer.head))
        }
        if adapter.answersWhole {
            guard let json = try? JSON.parse(bytes: answer.whole) else {
                return .failed(ToolError(.serverError, "the server's answer is not JSON"))
            }
            let whole = try adapter.streamRecords(fromAnswer: json, target: target)
            try whole.streamBytes.withUnsafeBytes { try collector.feed($0) }
        }
        collector.finish()
        switch collector.status {
        case .complete?:
            guard let reply = collector.reply else { break }
            if collector.waitingForTools == ["ask_user"] {
                return .failed(ToolError(.assistantAsks, "the reply ends on a question to the user; "
                    + "answer it with ps-send --answer TEXT and the job's conversation"))
            }
            if !collector.waitingForTools.isEmpty {
                return .failed(ToolError(.incomplete, "the reply is not whole: \(PendingToolCalls.detail(collector.waitingForTools))"))
            }
            return .reply(reply)
        case .incomplete(_, let detail, _)?:
            return .failed(ToolError(.incomplete, "the reply is not whole: \(detail)"))
        case nil:
            break
        }
        return .failed(ToolError(.incomplete, "the answer held no reply ps-parts can read"))
    }

    private func head(_ head: HTTPResponseHead?) -> Double? {
        head?.header("Retry-After").flatMap { RetryAfter.seconds($0) }
    }

    private struct Answer {
        var head: HTTPResponseHead?
        var errorBody: [UInt8] = []
        /// The body of a successful answer from an API that answers whole (one JSON document).
        var whole: [UInt8] = []
        var cut: Attempt?
    }

    /// A streamed reply goes into `collector` as it arrives (which holds at most one record of
    /// --max-record-size); a whole answer is held, as large as a record may be.
    private func transfer(_ request: HTTPRequest, into collector: ReplyCollector) throws -> Answer {
        var answer = Answer()
        let limit = InputLimits.current.maxRecordBytes
        let whole = adapter.answersWhole
        do {
            try adapter.client.http.stream(request, onHead: { answer.head = $0 }, onBody: { chunk in
                guard answer.head?.isSuccess == true else {
                    if answer.errorBody.count < 64 * 1024 { answer.errorBody.append(contentsOf: chunk) }
                    return
                }
                guard whole else { return try collector.feed(chunk) }
                guard answer.whole.count + chunk.count <= limit else { throw TransferFailure.tooLarge(limit: limit) }
                answer.whole.append(contentsOf: chunk)
            })
        } catch let tooLong as RecordTooLong {
            answer.cut = .failed(tooLong.serverError())
        } catch let failure as TransferFailure {
            switch failure {
            case .interrupted:
                throw JobAborted()
            case .network(let message, _):
                answer.cut = .cut(ToolError(.networkError, "the connection broke: \(message)"))
            case .tooLarge:
                answer.cut = .failed(ToolError(.serverError, "the answer is larger than --max-record-size allows"))
            default:
                answer.cut = .failed(APIErrors.toolError(failure, request: request, wording: adapter.client.errorWording))
            }
        }
        return answer
    }

    /// The reply to the job's message as the conversation holds it, waiting while the server is
    /// still generating it; nil when the conversation does not hold the message (the server never
    /// took it: it may be sent). Found by its id, or, where the server gives messages its own
    /// ids (Lucid, Gemini), as the newest message of the user with the `text` sent.
    private func readBack(_ text: String, conversation: String, messageID: String) throws -> JSON? {
        let source = HistorySource.global(conversationID: conversation)
        let deadline = MonotonicClock.now + settings.replyWait
        while true {
            let messages: [JSON]
            do {
                messages = try adapter.historyPage(source, query: historyQuery).messages
            } catch let error as ToolError where error.status == .notFound {
                return nil  // a conversation made by the first message, which never arrived
            }
            let index = messages.lastIndex { $0["id"]?.stringValue == messageID }
                ?? messages.lastIndex { $0["role"]?.stringValue == "user" && Self.text(of: $0) == text }
            guard let index else { return nil }
            if let reply = messages[(index + 1)...].first(where: { $0["role"]?.stringValue == "assistant" }) {
                return reply
            }
            guard MonotonicClock.now < deadline else {
                throw ToolError(.incomplete, "the server holds the message but no reply after \(Int(settings.replyWait)) s; "
                    + "it is not sent again (ps-history --conversation \(conversation) shows the conversation)")
            }
            guard Pause.seconds(0.25) else { throw JobAborted() }
        }
    }

    /// A message's text parts, joined.
    static func text(of message: JSON) -> String {
        (message["parts"]?.arrayValue ?? []).filter { $0["type"]?.stringValue == "text" }
            .compactMap { $0["text"]?.stringValue }.joined()
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(Int((seconds * 1000).rounded()))ms"
    }
}
