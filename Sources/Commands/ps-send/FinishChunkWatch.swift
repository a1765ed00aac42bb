import PSCore

/// Watches a stream's lines, as they pass, for the chunk that says the reply is whole: a UI
/// message stream's `finish` chunk (`data: {"type":"finish",…}`), or a chat completion
/// stream's chunk with a `finish_reason` (an OpenAI-compatible server's, PageSpace's `/api/v1`).
/// Lines are scanned as bytes; only a short `data:` line that mentions "finish" or "start" is
/// parsed, so a long reply costs next to nothing. It also counts the chunks (the `data:` lines
/// of JSON: a joined stream resumes after them) and keeps the `start` chunk's messageId.
/// Streams of named events (the Gemini mobile API's `event: token` …) end instead with an
/// `event: done`; an `event: error`'s message is kept to say why one did not.
/// A line, or an event (the lines up to a blank one), longer than `limits` allows throws
/// RecordTooLong: the server is sending something no reader could hold.
struct FinishChunkWatch {
    let limits: InputLimits
    private var lineNumber = 0
    /// The lines seen whole so far.
    var linesScanned: Int { lineNumber }
    private var lineLength = 0
    private var eventLength = 0
    private var eventStartLine = 0

    /// The parts open so far (started and not ended), so that a stream continued after a gap
    /// can tell a chunk that continues a part the reader has from one whose part it never got.
    private(set) var openParts = OpenParts()
    private(set) var sawFinish = false
    private(set) var chunkCount = 0
    private(set) var messageID: String?
    /// The inputs of the ask_user calls seen (PageSpace's question to the user, a tool with no
    /// execute: the server never sends its output, the reply stops on it).
    private(set) var questions: [JSON] = []
    /// An `event: done` came (a named-event stream that ended properly).
    private(set) var sawDoneEvent = false
    /// Whether the stream names its events (`event:` lines other than `message`).
    private(set) var sawNamedEvent = false
    /// The message and code of the last `event: error`, if one came.
    private(set) var errorEventMessage: String?
    private(set) var errorEventCode: String?
    private var currentEvent: [UInt8] = []
    private var afterCR = false
    private var line: [UInt8] = []
    private var lineTooLong = false
    /// A finish chunk is small (reason, usage, metadata); a longer line is not one.
    private static let longestFinishLine = 16 * 1024

    init(limits: InputLimits = .current) { self.limits = limits }

    mutating func scan(_ bytes: UnsafeRawBufferPointer) throws {
        for byte in bytes {
            defer { afterCR = byte == 0x0D }
            if byte == 0x0A && afterCR { continue }  // the \n of a \r\n: the line was checked at its \r
            if byte == 0x0A || byte == 0x0D {
                lineNumber += 1
                if lineLength == 0 {  // a blank line ends the event
                    eventLength = 0
                    eventStartLine = 0
                } else if eventStartLine == 0 {
                    eventStartLine = lineNumber
                }
                lineLength = 0
                check(line, whole: !lineTooLong)
                line.removeAll(keepingCapacity: true)
                lineTooLong = false
            } else {
                lineLength += 1
                eventLength += 1
                if lineLength > limits.maxRecordBytes { throw RecordTooLong(.line, number: lineNumber + 1, limits: limits) }
                if eventLength > limits.maxRecordBytes {
                    throw RecordTooLong(.event, number: eventStartLine == 0 ? lineNumber + 1 : eventStartLine, limits: limits)
                }
                guard !lineTooLong else { continue }
                line.append(byte)
                if line.count > Self.longestFinishLine { lineTooLong = true }
            }
        }
    }

    /// `whole` is false for a line longer than any finish or start chunk (only its start was kept).
    private mutating func check(_ line: [UInt8], whole: Bool) {
        if line.isEmpty {
            currentEvent = []
            return
        }
        if line.starts(with: Array("event:".utf8)) {
            currentEvent = Array(line.dropFirst(6).drop { $0 == 0x20 })
            if currentEvent != Array("message".utf8) { sawNamedEvent = true }
            if currentEvent == Array("done".utf8) { sawDoneEvent = true }
            return
        }
        guard line.starts(with: Array("data:".utf8)) else { return }
        let data = line.dropFirst(5).drop { $0 == 0x20 }
        if currentEvent == Array("error".utf8) {
            let error = whole ? try? JSON.parse(bytes: Array(data)) : nil
            let message = error?["message"]?.stringValue ?? error?["error"]?.stringValue ?? String(decoding: data, as: UTF8.self)
            errorEventMessage = message
            errorEventCode = error?["code"]?.stringValue
            return
        }
        guard data.first == UInt8(ascii: "{") else { return }
        chunkCount += 1
        let isStart = whole && messageID == nil && Self.mentions(Self.start, in: data)
        let mentionsFinish = Self.mentions(Self.finish, in: data) || Self.mentions(Self.finishReason, in: data)
        let opensOrCloses = data.count <= Self.longestFinishLine
            && (Self.mentions(Self.partStart, in: data) || Self.mentions(Self.partEnd, in: data)
                || Self.mentions(Self.toolInput, in: data))
        guard whole, isStart || mentionsFinish || opensOrCloses, let chunk = try? JSON.parse(bytes: Array(data)) else { return }
        if chunk["type"]?.stringValue == "tool-input-available", chunk["toolName"]?.stringValue == "ask_user" {
            questions.append(chunk["input"] ?? .null)
        }
        switch chunk["type"]?.stringValue {
        case "finish": sawFinish = true
        case "start": messageID = chunk["messageId"]?.stringValue
        default: openParts.apply(chunk)
        }
        if chunk["object"]?.stringValue == "chat.completion.chunk",
           chunk["choices"]?.arrayValue?.contains(where: { $0["finish_reason"]?.stringValue != nil }) == true {
            sawFinish = true
        }
    }

    private static let finish = Array("\"finish\"".utf8), start = Array("\"start\"".utf8)
    private static let partStart = Array("-start\"".utf8), partEnd = Array("-end\"".utf8)
    private static let toolInput = Array("\"tool-input-available\"".utf8)
    private static let finishReason = Array("\"finish_reason\":\"".utf8)

    private static func mentions(_ needle: [UInt8], in data: ArraySlice<UInt8>) -> Bool {
        guard data.count >= needle.count else { return false }
        var index = data.startIndex
        while index <= data.endIndex - needle.count {
            if data[index] == needle[0] && data[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}

/// The text and reasoning parts a UI message stream has open (by id) and the tool calls it
/// has begun (by toolCallId).
struct OpenParts {
    var text: Set<String> = []
    var reasoning: Set<String> = []
    var toolCalls: Set<String> = []

    mutating func apply(_ chunk: JSON) {
        let id = chunk["id"]?.stringValue ?? ""
        switch chunk["type"]?.stringValue {
        case "text-start": text.insert(id)
        case "text-end": text.remove(id)
        case "reasoning-start": reasoning.insert(id)
        case "reasoning-end": reasoning.remove(id)
        case "tool-input-start", "tool-input-available":
            if let call = chunk["toolCallId"]?.stringValue { toolCalls.insert(call) }
        default: break
        }
    }

    /// What to write for `chunk` of a stream that skipped chunks (a gap): a text or
    /// reasoning delta of a part whose start was in the gap is written after that start,
    /// made again; an end of such a part, and what continues a tool call whose start was
    /// in the gap, are left out. Every other chunk is written as it is.
    func mended(_ chunk: JSON) -> [JSON] {
        let id = chunk["id"]?.stringValue ?? ""
        let call = chunk["toolCallId"]?.stringValue ?? ""
        switch chunk["type"]?.stringValue {
        case "text-delta" where !text.contains(id): return [["type": "text-start", "id": .string(id)], chunk]
        case "reasoning-delta" where !reasoning.contains(id): return [["type": "reasoning-start", "id": .string(id)], chunk]
        case "text-end" where !text.contains(id), "reasoning-end" where !reasoning.contains(id): return []
        case "tool-input-delta" where !toolCalls.contains(call), "tool-output-available" where !toolCalls.contains(call),
             "tool-output-error" where !toolCalls.contains(call):
            return []
        default: return [chunk]
        }
    }
}
