import PSCore

/// `ps-render --format text`: only the assistant's reply text, written as it arrives, with no
/// decoration, for programs that take the answer onward (`| tee`, `| say`). Text parts are
/// separated by a blank line, messages by one more; user messages, reasoning, tools and
/// notices are left out. Control characters are made safe as in every format. A message that
/// ended incomplete still shows what arrived, and the exit status says so.
public final class ReplyTextWriter {
    private let output: (String) throws -> Void
    private var role = "assistant"
    /// Per part index: the text already written (nil for parts that are not text).
    private var written: [Int: String] = [:]
    private var wroteInMessage = false
    private var wroteAny = false
    private var pending = ""
    private var lastCharacter: Character?
    /// A text part began empty: the separator goes before its first delta.
    private var pendingPartStart = false
    public private(set) var sawIncomplete = false

    public init(output: @escaping (String) throws -> Void) { self.output = output }

    public func handle(_ record: JSON) throws {
        guard let object = record.terminalSafe.objectValue else { throw RecordRenderer.RecordError(message: "not a JSON object") }
        if object["role"] != nil, let parts = object["parts"]?.arrayValue {
            startMessage(role: object["role"]?.stringValue ?? "assistant")
            for (index, part) in parts.enumerated() { show(part.objectValue ?? JSONObject(), at: index) }
            if object["incomplete"] != nil { sawIncomplete = true }
            endMessage()
            return
        }
        switch object["type"]?.stringValue {
        case "message-start":
            startMessage(role: object["role"]?.stringValue ?? "assistant")
        case "part-start", "part-update":
            guard let part = object["part"]?.objectValue, let index = object["index"]?.intValue else {
                throw RecordRenderer.RecordError(message: "part record without a part and an index")
            }
            show(part, at: Int(index))
        case "part-delta":
            guard let index = object["index"]?.intValue.map({ Int($0) }), let delta = object["delta"]?.stringValue else {
                throw RecordRenderer.RecordError(message: "part-delta without an index and a delta")
            }
            // Appended in place: `sofar + delta` would copy the whole text for every delta.
            if written[index] != nil {
                written[index]!.append(delta)
                emit(delta)
            }
        case "message-end":
            if let final = object["message"]?.objectValue, let parts = final["parts"]?.arrayValue {
                for (index, part) in parts.enumerated() { show(part.objectValue ?? JSONObject(), at: index) }
            }
            if object["status"]?.stringValue == "incomplete" { sawIncomplete = true }
            endMessage()
        case nil:
            if object["event"] != nil && object["data"] != nil {
                throw RecordRenderer.RecordError(message: "an event record from ps-sse: pipe it through ps-parts first")
            }
            throw RecordRenderer.RecordError(message: "neither a part record (type) nor a message record (role, parts)")
        default:
            break
        }
    }

    /// Writes what was gathered since the last call (once per read of the input).
    public func flush() throws {
        guard !pending.isEmpty else { return }
        let text = pending
        pending = ""
        try output(text)
    }

    public func finish() throws {
        endMessage()
        try flush()
    }

    private func startMessage(role: String) {
        endMessage()
        self.role = role
    }

    private func endMessage() {
        if wroteInMessage && lastCharacter != "\n" { emitRaw("\n") }
        written = [:]
        wroteInMessage = false
    }

    /// A part as it stands: text the reader has not seen yet is written.
    private func show(_ part: JSONObject, at index: Int) {
        guard role == "assistant", part["type"]?.stringValue == "text", let text = part["text"]?.stringValue else { return }
        if let sofar = written[index] {
            guard text.hasPrefix(sofar), text.count > sofar.count else { return }
            written[index] = text
            emit(String(text.dropFirst(sofar.count)))
        } else {
            written[index] = text
            if !text.isEmpty { emit(text, startsPart: true) } else { pendingPartStart = true }
        }
    }

    private func emit(_ text: String, startsPart: Bool = false) {
        guard !text.isEmpty else { return }
        if startsPart || pendingPartStart {
            pendingPartStart = false
            if wroteInMessage { emitRaw(lastCharacter == "\n" ? "\n" : "\n\n") } else if wroteAny { emitRaw("\n") }
        } else if !wroteInMessage && wroteAny {
            emitRaw("\n")
        }
        wroteInMessage = true
        wroteAny = true
        emitRaw(text)
    }

    private func emitRaw(_ text: String) {
        pending += text
        lastCharacter = text.last ?? lastCharacter
    }
}
