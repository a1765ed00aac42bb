import PSCore
import PSNet
import PSRender
#if canImport(Glibc)
import Glibc
#endif

/// The reader of our output went away (`| head`): stop, and let the server stop too.
struct ReaderGone: Error {}

/// Copies a send's response body to its output (stdout, raw or rendered) as it arrives. An error answer (4xx/5xx) is read
/// instead and becomes one line and an exit status; a success is checked for its end: a
/// UI message stream that stops without `data: [DONE]` did not finish, and one that closes
/// with `[DONE]` but never sent a `finish` chunk was stopped on the server (aborted, taken
/// over by another tab, overflowed): the reply is not whole either. A stream of named events
/// (the Gemini mobile API) is whole when its `done` event came.
final class ResponseStream {
    let printIDs: Bool
    let knowsConversation: Bool
    let output: ReplyOutput
    private(set) var streamID: String?
    private var head: HTTPResponseHead?
    private var errorBody: [UInt8] = []
    private var received = 0
    /// The last bytes written, to see the closing [DONE].
    private var tail: [UInt8] = []
    private var finishes = FinishChunkWatch()
    /// Rebuilds the reply as it streams, when the client keeps the conversation; it then also
    /// says whether the reply is whole (in any stream format, not only the UI message stream).
    let collector: ReplyCollector?

    /// Whether a cut stream may be joined again: then only whole events are written (the
    /// join resumes at an event boundary), the rest waits in `heldBack` for its blank line.
    let resumable: Bool
    private var heldBack: [UInt8] = []
    /// The client runs the tools the reply asks for (ToolLoop): a reply that waits for them is whole.
    var runsTools = false
    /// The stream closed with [DONE] but no finish: the server stopped the reply.
    private(set) var stoppedOnServer = false
    /// Words a refusal in its API's terms (`APIClient.refusal`), once `run` has it.
    private var client: APIClient?

    init(output: ReplyOutput, printIDs: Bool, knowsConversation: Bool, collector: ReplyCollector? = nil, resumable: Bool = false) {
        self.output = output
        self.printIDs = printIDs
        self.knowsConversation = knowsConversation
        self.collector = collector
        self.resumable = resumable
    }

    /// The chunks written so far (a join continues with the next), and the reply's id.
    var chunksWritten: Int { finishes.chunkCount }
    var messageID: String? { finishes.messageID }
    var sawFinish: Bool { finishes.sawFinish }
    /// The inputs of the ask_user calls the reply made (its questions to the user).
    var questions: [JSON] { finishes.questions }
    var openParts: OpenParts { finishes.openParts }

    /// Sends `request` and copies its answer; a 401 to a credential the client can renew (the
    /// legacy API's 15-minute JWT) is sent once more with the renewed one.
    func run(_ request: inout HTTPRequest, client: APIClient) throws {
        self.client = client
        do {
            try run(request, http: client.http)
        } catch let refused as ToolError where head?.status == 401 {
            guard let renewed = try client.renewedRequest(request) else { throw refused }
            request = renewed
            head = nil
            errorBody = []
            try run(request, http: client.http)
        }
    }

    func run(_ request: HTTPRequest, http: HTTPClient) throws {
        let state = self
        try http.stream(request, onHead: { head in
            state.head = head
            guard head.isSuccess else { return }
            state.streamID = head.header("X-Stream-Id")
            if state.printIDs {
                if !state.knowsConversation, let id = head.header("X-Conversation-Id") {
                    Diagnostics.writeLine("conversation=\(id)")
                }
                if let id = state.streamID { Diagnostics.writeLine("stream=\(id)") }
            }
        }, onBody: { chunk in
            guard state.head?.isSuccess == true else {
                if state.errorBody.count < 64 * 1024 { state.errorBody.append(contentsOf: chunk) }
                return
            }
            guard state.resumable else { return try state.emit(chunk) }
            let searched = state.heldBack.count
            // One event waits here for its blank line: never more than the cap.
            if searched + chunk.count > InputLimits.current.maxRecordBytes + 4 {
                throw RecordTooLong(.event, number: state.finishes.linesScanned + 1, limits: .current).serverError()
            }
            state.heldBack.append(contentsOf: chunk)
            guard let end = Self.lastEventEnd(state.heldBack, from: max(0, searched - 3)) else { return }
            let whole = Array(state.heldBack[..<end])
            state.heldBack.removeFirst(end)
            try whole.withUnsafeBytes { try state.emit($0) }
        })
        if !heldBack.isEmpty {  // the stream ended: its last event needs no blank line
            let rest = heldBack
            heldBack = []
            try rest.withUnsafeBytes { try emit($0) }
        }
        try finishChecks(request)
    }

    /// Writes bytes of the answer to the output and watches them pass.
    func emit(_ chunk: UnsafeRawBufferPointer) throws {
        do {
            try output.write(chunk)
        } catch is ReplyOutputClosed {
            throw ReaderGone()
        }
        received += chunk.count
        do {
            try finishes.scan(chunk)
            try collector?.feed(chunk)
        } catch let tooLong as RecordTooLong {
            throw tooLong.serverError()
        }
        tail.append(contentsOf: chunk.suffix(64))
        if tail.count > 64 { tail.removeFirst(tail.count - 64) }
    }

    /// The end of the last whole event in `bytes` (just after its blank line), looking no
    /// further back than `from` (what was searched before), if any.
    static func lastEventEnd(_ bytes: [UInt8], from: Int = 0) -> Int? {
        var index = bytes.count - 1
        while index >= max(1, from) {
            if bytes[index] == 0x0A && (bytes[index - 1] == 0x0A
                || (index >= 3 && bytes[index - 1] == 0x0D && bytes[index - 2] == 0x0A)) {
                return index + 1
            }
            index -= 1
        }
        return nil
    }

    /// After the body (or a join that continued it): an error answer becomes its ToolError,
    /// a reply that did not end properly exit 10.
    func finishChecks(_ request: HTTPRequest) throws {
        guard let head, head.isSuccess else {
            let response = HTTPResponse(head: head ?? HTTPResponseHead(status: 0, headers: []), body: errorBody)
            throw client?.refusal(response, request: request) ?? APIErrors.toolError(response, request: request)
        }
        if let collector {
            collector.finish()
            if case .incomplete(_, let detail, _)? = collector.status {
                throw ToolError(.incomplete, "the reply is not whole: \(detail); what arrived was written")
            }
            guard collector.status != nil else {
                throw ToolError(.incomplete, "the answer held no reply ps-parts can read (\(received) bytes were written)")
            }
            if !collector.waitingForTools.isEmpty && !runsTools {
                throw ToolError(.incomplete, "the reply is not whole: \(PendingToolCalls.detail(collector.waitingForTools)); what arrived was written")
            }
            return
        }
        let isUIMessageStream = head.header("x-vercel-ai-ui-message-stream") != nil
            || head.header("Content-Type")?.hasPrefix("text/event-stream") == true
        // A stream of named events ends with its `done` event; without one it is not whole. An
        // error event fails the reply even when a `done` follows it (the Gemini server sends one
        // after every error of the turn).
        if isUIMessageStream && finishes.sawNamedEvent, let message = finishes.errorEventMessage {
            let error = GeminiStreamError.toolError(code: finishes.errorEventCode, message: message)
            throw ToolError(error.status, TerminalSafeText.sanitize(error.message))
        }
        if isUIMessageStream && finishes.sawDoneEvent { return }
        if isUIMessageStream && finishes.sawNamedEvent {
            throw ToolError(.incomplete, "the stream ended without a done event after \(received) bytes; what arrived was written")
        }
        if isUIMessageStream && !containsDone(tail) {
            throw ToolError(.incomplete, "the stream ended without [DONE] after \(received) bytes")
        }
        if isUIMessageStream && !finishes.sawFinish && finishes.chunkCount == 0 {
            // createStreamLifecycle (lib/ai/core/stream-lifecycle.ts:271-351): an abort that
            // found nothing to stop leaves a pending abort that stops the next send within 30s.
            throw ToolError(
                .incomplete,
                "the server stopped the reply before it started: an abort of this conversation in the last "
                    + "30 seconds found nothing to stop, and the server then stops the next send; send it again")
        }
        if isUIMessageStream && !finishes.sawFinish {
            stoppedOnServer = true
            throw ToolError(
                .incomplete,
                "the stream closed with [DONE] but no finish: the server stopped the reply before its end "
                    + "(aborted, or taken over by another session); what arrived was written")
        }
        if isUIMessageStream, let asked = questions.last {
            throw ToolError(.assistantAsks, Self.questionLine(asked))
        }
    }

    func toolError(_ failure: TransferFailure, request: HTTPRequest) -> ToolError {
        if case .network(let message, true) = failure {
            return ToolError(.networkError, "the stream was cut after \(received) bytes: \(message)")
        }
        return APIErrors.toolError(failure, request: request)
    }

    /// "the assistant asks: Which part…? (Demo Drive, Everything); answer with ps-send --answer TEXT".
    static func questionLine(_ input: JSON) -> String {
        let questions = input["questions"]?.arrayValue ?? []
        let asked = questions.map { question -> String in
            let options = (question["options"]?.arrayValue ?? []).compactMap { $0["label"]?.stringValue }
            return (question["question"]?.stringValue ?? "") + (options.isEmpty ? "" : " (" + options.joined(separator: ", ") + ")")
        }.joined(separator: "; ")
        let how = questions.count > 1 ? "give --answer TEXT once for each question, in order" : "answer with ps-send --answer TEXT"
        let oneLine = asked.split(whereSeparator: \.isNewline).joined(separator: " ")
        return TerminalSafeText.sanitize("the assistant asks: " + oneLine) + "; " + how
            + " (and the same --conversation or --page)"
    }

    private func containsDone(_ bytes: [UInt8]) -> Bool {
        let marker = Array("[DONE]".utf8)
        guard bytes.count >= marker.count else { return false }
        return (0...(bytes.count - marker.count)).contains { Array(bytes[$0..<($0 + marker.count)]) == marker }
    }
}
