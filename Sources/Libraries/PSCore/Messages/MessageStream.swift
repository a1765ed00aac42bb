/// A line of input that ended the stream: not a record, or a chunk the reducer could not apply.
public struct MalformedRecord: Error, CustomStringConvertible, Sendable {
    public let line: Int
    public let message: String
    public var description: String { "line \(line): \(message)" }
}

/// What MessageStream reports, in input order.
public enum MessageEvent {
    /// A streamed message began (its id is "" if the stream has not given one yet).
    case started(MessageAssembler)
    /// One input line changed the message.
    case changed(MessageAssembler, [MessageChange])
    /// The server reported an error (the message then ends, incomplete).
    case streamError(String, line: Int)
    /// The streamed message ended.
    case ended(MessageAssembler, MessageStatus)
    /// A whole message from a history line, normalised.
    case whole(JSON)
}

/// Follows the messages in a sequence of input records (ps-ndjson(5) event records from ps-sse,
/// bare chunks, or whole messages): picks the format of each record, translates the older formats
/// into UI stream chunks, feeds the assembler, and decides when and how each message ends.
///
/// Ends of a streamed message: `[DONE]` (or v4's `d`, Gemini's `done`) ends it; an `error` ends it
/// incomplete and the rest of that stream is skipped, as the SDK stops reading there; the end of
/// input ends it. Either way it is complete only if a `finish` came. An `abort` marks it incomplete but, as in the
/// SDK, later chunks still apply. A malformed record ends it and is thrown: the SDK stops there.
public final class MessageStream {
    private enum State { case idle, streaming, skipping }

    private var state = State.idle
    private var assembler = MessageAssembler()
    private var simplified = SimplifiedChunkFormat()
    private var dataStream = DataStreamFormat()
    private var gemini = GeminiEventFormat()
    private var openAI = OpenAIChunkFormat()
    private var finished = false
    private var abort: (reason: String?, line: Int)?
    private var changes: [MessageChange] = []
    private var lastLine = 0
    /// The text part the last text delta went to: its stream id and index. Only chunks other than
    /// text deltas open and close text parts, so it holds until one of them is applied.
    private var lastDeltaTarget: (id: [UInt8], index: Int)?
    private let emit: (MessageEvent) throws -> Void

    public init(_ emit: @escaping (MessageEvent) throws -> Void) {
        self.emit = emit
    }

    /// The message being streamed, as it stands (nil between messages).
    public var messageSoFar: JSON? { state == .streaming ? assembler.message : nil }

    /// Handles one input record (line `line`). Throws MalformedRecord after ending the message.
    public func consume(_ record: JSON, line: Int) throws {
        lastLine = line
        do {
            try route(record, line: line)
        } catch let error as MalformedChunk {
            try fail(line: line, error.message)
        }
    }

    /// Handles one chunk, decoded already, that came on line `line`.
    func consume(chunk: JSONObject, line: Int) throws {
        lastLine = line
        do {
            guard case .string(let type)? = chunk["type"] else { throw MalformedChunk("chunk without a \"type\"") }
            try routeChunk(chunk, type: type, line: line)
        } catch let error as MalformedChunk {
            try fail(line: line, error.message)
        }
    }

    /// One line of event records, as ps-parts reads it: a text delta on the fast path, else the
    /// JSON record; a line that is not JSON is malformed (`hint` may say what it looks like).
    public func consumeLine(
        _ line: UnsafeRawBufferPointer, number: Int, hint: (UnsafeRawBufferPointer) -> String = { _ in "" }
    ) throws {
        if let delta = TextDeltaRecord.match(line) {
            return try consumeTextDelta(delta, line: number)
        }
        let value: JSON
        do {
            value = try JSON.parse(line)
        } catch let error as JSONParseError {
            return try consumeUnreadable(line: number, "not JSON (\(error.message))" + hint(line))
        }
        try consume(value, line: number)
    }

    /// A line that is not JSON at all.
    public func consumeUnreadable(line: Int, _ message: String) throws {
        lastLine = line
        try fail(line: line, message)
    }

    /// End of input.
    public func finish() throws {
        if state == .streaming { try end(statusAtEnd(eof: true)) }
        state = .idle
    }

    // MARK: Routing

    private func route(_ record: JSON, line: Int) throws {
        if case .object(let object) = record, case .string(let event)? = object["event"], let data = object["data"] {
            try routeEvent(event, data: data, done: object["done"] == true, line: line)
        } else if let messages = MessageNormalizer.messages(in: record) {
            if state == .streaming { try end(statusAtEnd(eof: true)) }
            state = .idle
            for message in messages { try emit(.whole(MessageNormalizer.normalize(message))) }
        } else if case .object(let object) = record, case .string(let type)? = object["type"] {
            try routeChunk(object, type: type, line: line)
        } else if case .object(let object) = record, object["deleted"] == true, case .string? = object["id"] {
            return  // a deletion record (ps-history --follow): nothing to rebuild or show
        } else {
            throw MalformedChunk("not an event record, a chunk or a message")
        }
    }

    private func routeEvent(_ event: String, data: JSON, done: Bool, line: Int) throws {
        var data = data
        if done || data == "[DONE]" { return try streamDone() }
        if event == "data-stream" { return try routeDataStream(data, line: line) }
        if case .string(let text) = data {  // ps-sse --raw: the data is the exact text
            guard let parsed = try? JSON.parse(text) else { throw MalformedChunk("\(event) event whose data is not JSON") }
            data = parsed
        }
        guard case .object(let payload) = data else { throw MalformedChunk("\(event) event whose data is not a JSON object") }
        if case .string(let type)? = payload["type"] {
            try routeChunk(payload, type: type, line: line)
        } else if OpenAIChunkFormat.matches(payload) || payload["error"] != nil && payload.count == 1 {
            try apply(try openAI.translate(payload), line: line, ends: false)
        } else if GeminiEventFormat.names.contains(event) {
            let (chunks, ends) = try gemini.translate(event: event, data: payload)
            try apply(chunks, line: line, ends: ends)
        } else {
            throw MalformedChunk("\(event) event whose data is not a chunk (no \"type\")")
        }
    }

    private func routeDataStream(_ data: JSON, line: Int) throws {
        var code: String
        var value: JSON
        switch data {
        case .object(let object):
            guard case .string(let c)? = object["code"], let v = object["value"] else {
                throw MalformedChunk("data-stream event without \"code\" and \"value\"")
            }
            (code, value) = (c, v)
        case .string(let text):  // ps-sse --raw: "CODE:JSON"
            guard let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")),
                let parsed = try? JSON.parse(String(text[text.index(after: colon)...]))
            else { throw MalformedChunk("data-stream line that is not CODE:JSON") }
            (code, value) = (String(text[..<colon]), parsed)
        default: throw MalformedChunk("data-stream event whose data is not a line")
        }
        let (chunks, ends) = try dataStream.translate(code: code, value: value)
        try apply(chunks, line: line, ends: ends)
    }

    private func routeChunk(_ chunk: JSONObject, type: String, line: Int) throws {
        if let chunks = try simplified.translate(chunk, type: type) {
            try apply(chunks, line: line, ends: false)
        } else {
            try apply([chunk], line: line, ends: false)
        }
    }

    // MARK: Applying

    private func apply(_ chunks: [JSONObject], line: Int, ends: Bool) throws {
        for chunk in chunks { try apply(chunk, line: line) }
        if ends && state == .streaming { try end(statusAtEnd(eof: false)) }
    }

    private func apply(_ chunk: JSONObject, line: Int) throws {
        lastDeltaTarget = nil
        try apply(line: line, isStart: chunk["type"] == "start") { try $0.apply(chunk, changes: &$1) }
    }

    /// A text delta (the hot path): as applying its chunk, without building one. Falls back to the
    /// chunk when a simplified text run is open, as that chunk would close it first.
    func applyTextDelta(id: String, delta: String, line: Int) throws {
        lastLine = line
        guard !simplified.runs.isOpen else {
            return try consume(chunk: JSONObject([("type", "text-delta"), ("id", .string(id)), ("delta", .string(delta))]), line: line)
        }
        do {
            try apply(line: line, isStart: false) { try $0.appendTextDelta(id: id, delta: delta, changes: &$1) }
        } catch let error as MalformedChunk {
            try fail(line: line, error.message)
        }
    }

    /// The part a text delta for stream id `id` goes to, when it is the last delta's part.
    func lastDeltaTargetIndex(for id: UnsafeRawBufferPointer) -> Int? {
        guard state == .streaming, let target = lastDeltaTarget, target.id.elementsEqual(id) else { return nil }
        return target.index
    }

    /// Remembers the part the delta for stream id `name` (`id` in bytes) just went to.
    func rememberDeltaTarget(id: UnsafeRawBufferPointer, name: String) {
        guard state == .streaming, !simplified.runs.isOpen, let index = assembler.openTextPart(name) else { return }
        lastDeltaTarget = (Array(id), index)
    }

    /// A text delta for the open part at `index`: what applying its chunk does, without the
    /// lookups (the message is streaming and the part open: `lastDeltaTargetIndex` said so).
    func appendTextDelta(_ delta: String, toPartAt index: Int, line: Int) throws {
        lastLine = line
        changes.removeAll(keepingCapacity: true)
        assembler.appendText(delta, toPartAt: index, &changes)
        try emit(.changed(assembler, changes))
    }

    private func apply(
        line: Int, isStart: Bool, _ operation: (inout MessageAssembler, inout [MessageChange]) throws -> ChunkOutcome
    ) throws {
        if state == .skipping {
            guard isStart else { return }
            state = .idle
        }
        var announceAfter = false
        if state == .idle {
            assembler = MessageAssembler()
            finished = false
            abort = nil
            state = .streaming
            // A leading `start` gives the id the message-start record carries.
            if isStart { announceAfter = true } else { try emit(.started(assembler)) }
        }
        changes.removeAll(keepingCapacity: true)
        let outcome: ChunkOutcome
        do {
            outcome = try operation(&assembler, &changes)
        } catch {
            if announceAfter { try emit(.started(assembler)) }  // every message-end has its start
            throw error
        }
        if announceAfter {
            try emit(.started(assembler))
            changes.removeAll { $0 == .idChanged }
        }
        if !changes.isEmpty { try emit(.changed(assembler, changes)) }
        switch outcome {
        case .applied: break
        case .finished: finished = true
        case .aborted(let reason): if abort == nil { abort = (reason, line) }
        case .streamError(let text):
            try emit(.streamError(text, line: line))
            try end(.incomplete(reason: .error, detail: text, line: line))
            state = .skipping
        }
    }

    private func streamDone() throws {
        if state == .streaming { try end(statusAtEnd(eof: false)) }
        state = .idle
        openAI = OpenAIChunkFormat()
    }

    private func statusAtEnd(eof: Bool) -> MessageStatus {
        if let abort {
            return .incomplete(reason: .abort, detail: abort.reason ?? "the stream was aborted", line: abort.line)
        }
        // The current server closes a stream it stopped (aborted, taken over by another tab,
        // overflowed) cleanly with [DONE]: only a `finish` chunk says the reply is whole.
        if !finished {
            let detail = eof
                ? "the stream ended without finish or [DONE]"
                : "the stream closed with [DONE] but no finish: the server stopped the reply before its end"
            return .incomplete(reason: .noFinish, detail: detail, line: lastLine)
        }
        return .complete
    }

    private func end(_ status: MessageStatus) throws {
        state = .idle
        lastDeltaTarget = nil
        simplified = SimplifiedChunkFormat()
        dataStream = DataStreamFormat()
        gemini = GeminiEventFormat()
        try emit(.ended(assembler, status))
    }

    private func fail(line: Int, _ message: String) throws {
        lastDeltaTarget = nil
        if state == .streaming {
            try end(.incomplete(reason: .malformed, detail: "line \(line): \(message)", line: line))
        }
        state = .idle
        throw MalformedRecord(line: line, message: message)
    }
}
