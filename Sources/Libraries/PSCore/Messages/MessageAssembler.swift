/// Rebuilds an assistant message from AI SDK UI message stream chunks exactly as the SDK's own
/// reducer does (`processUIMessageStream` in packages/ai/src/ui/process-ui-message-stream.ts,
/// AI SDK 7). Parts are built with the SDK's object literals and assignments, so keys come out
/// in the SDK's order and undefined keys stay absent.
///
/// `apply` reports what each chunk changed, for incremental output, and throws MalformedChunk
/// where the SDK would throw; the message keeps everything built before.
public struct MessageAssembler: Sendable {
    /// The message id: "" until a `start` chunk gives one.
    public internal(set) var id = ""
    /// Merged message metadata; nil until some arrives.
    public internal(set) var metadata: JSON?
    public internal(set) var parts: [PartObject] = []
    /// The last `finish` chunk's reason (the SDK keeps it beside the message, not in it).
    public internal(set) var finishReason: String?

    /// Open text and reasoning parts by stream id, as indices into `parts`. Indices stay valid:
    /// parts are only ever appended, or cut off at `reset-step`, which forgets them all.
    var activeText: [String: Int] = [:]
    var activeReasoning: [String: Int] = [:]
    var partialToolCalls: [String: PartialToolCall] = [:]

    struct PartialToolCall: Sendable {
        var text = ""
        var toolName: String
        var dynamic: Bool?
        var title: String?
        var toolMetadata: JSON?
    }

    public init() {}

    static let finishReasons: Set<String> = ["stop", "length", "content-filter", "tool-calls", "error", "other"]

    /// Applies one chunk (a decoded JSON object with a string `type`).
    public mutating func apply(_ chunk: JSONObject, changes: inout [MessageChange]) throws -> ChunkOutcome {
        guard case .string(let type)? = chunk["type"] else { throw MalformedChunk("chunk without a \"type\"") }
        let fields = ChunkFields(chunk, type: type)
        switch type {
        case "text-start":
            let part = PartObject([
                ("type", "text"), ("text", ""), ("providerMetadata", try fields.providerMetadata()),
                ("state", "streaming"),
            ])
            activeText[try fields.string("id")] = parts.count
            append(part, &changes)
        case "text-delta": try appendDelta(fields, kind: "text", active: activeText, &changes)
        case "text-end": try endText(fields, kind: "text", &changes)
        case "reasoning-start":
            let id = try fields.string("id")
            let part = PartObject([
                ("type", "reasoning"), ("id", .string(id)), ("text", ""),
                ("providerMetadata", try fields.providerMetadata()), ("state", "streaming"),
            ])
            activeReasoning[id] = parts.count
            append(part, &changes)
        case "reasoning-delta": try appendDelta(fields, kind: "reasoning", active: activeReasoning, &changes)
        case "reasoning-end": try endText(fields, kind: "reasoning", &changes)
        case "custom":
            append(
                PartObject([("type", "custom"), ("kind", .string(try fields.string("kind"))),
                          ("providerMetadata", try fields.providerMetadata())]), &changes)
        case "file", "reasoning-file":
            var part = PartObject([
                ("type", .string(type)), ("mediaType", .string(try fields.string("mediaType"))),
                ("url", .string(try fields.string("url"))),
            ])
            if let metadata = try fields.providerMetadata() { part["providerMetadata"] = metadata }
            append(part, &changes)
        case "source-url":
            append(
                PartObject([
                    ("type", "source-url"), ("sourceId", .string(try fields.string("sourceId"))),
                    ("url", .string(try fields.string("url"))), ("title", try fields.optionalString("title").map(JSON.string)),
                    ("providerMetadata", try fields.providerMetadata()),
                ]), &changes)
        case "source-document":
            append(
                PartObject([
                    ("type", "source-document"), ("sourceId", .string(try fields.string("sourceId"))),
                    ("mediaType", .string(try fields.string("mediaType"))), ("title", .string(try fields.string("title"))),
                    ("filename", try fields.optionalString("filename").map(JSON.string)),
                    ("providerMetadata", try fields.providerMetadata()),
                ]), &changes)
        case "tool-input-start": try toolInputStart(fields, &changes)
        case "tool-input-delta": try toolInputDelta(fields, &changes)
        case "tool-input-available": try toolInputAvailable(fields, &changes)
        case "tool-input-error": try toolInputError(fields, &changes)
        case "tool-approval-request": try toolApprovalRequest(fields, &changes)
        case "tool-approval-response": try toolApprovalResponse(fields, &changes)
        case "tool-output-denied":
            let index = try toolInvocation(try fields.string("toolCallId"))
            parts[index]["state"] = "output-denied"
            changes.append(.partChanged(index))
        case "tool-output-available": try toolOutputAvailable(fields, &changes)
        case "tool-output-error": try toolOutputError(fields, &changes)
        case "start-step": append(PartObject([("type", "step-start")]), &changes)
        case "finish-step":
            activeText = [:]
            activeReasoning = [:]
        case "reset-step":
            let start = currentStepStart
            activeText = [:]
            activeReasoning = [:]
            partialToolCalls = [:]
            if start < parts.count {
                parts.removeSubrange(start...)
                changes.append(.partsRemoved(from: start))
            }
        case "start":
            if let messageId = try fields.optionalString("messageId") {
                id = messageId
                changes.append(.idChanged)
            }
            mergeMetadata(chunk["messageMetadata"], &changes)
        case "finish":
            if let reason = try fields.optionalString("finishReason") {
                guard Self.finishReasons.contains(reason) else {
                    throw MalformedChunk("finish chunk with an unknown finishReason \"\(reason)\"")
                }
                finishReason = reason
            }
            mergeMetadata(chunk["messageMetadata"], &changes)
            return .finished
        case "message-metadata":
            mergeMetadata(chunk["messageMetadata"], &changes)
        case "error":
            return .streamError(try fields.string("errorText"))
        case "abort":
            return .aborted(try fields.optionalString("reason"))
        default:
            guard type.hasPrefix("data-") else { throw MalformedChunk("unknown chunk type \"\(type)\"") }
            try applyData(fields, &changes)
        }
        return .applied
    }

    // MARK: Building blocks

    mutating func append(_ part: PartObject, _ changes: inout [MessageChange]) {
        parts.append(part)
        changes.append(.partAdded(parts.count - 1))
    }

    /// Where the current step begins: after the last `step-start` part.
    var currentStepStart: Int {
        (parts.lastIndex { $0["type"] == "step-start" }).map { $0 + 1 } ?? 0
    }

    /// `text-delta` without a chunk object (ps-parts' hot path); the same as applying one.
    public mutating func appendTextDelta(id: String, delta: String, changes: inout [MessageChange]) throws -> ChunkOutcome {
        guard let index = activeText[id] else {
            throw MalformedChunk("text-delta for text part \"\(id)\", which is not open (no text-start)")
        }
        appendText(delta, toPartAt: index, &changes)
        return .applied
    }

    /// The open text part a `text-delta` for stream id `id` goes to.
    func openTextPart(_ id: String) -> Int? { activeText[id] }

    /// A text delta for the part at `index`, found open already.
    mutating func appendText(_ delta: String, toPartAt index: Int, _ changes: inout [MessageChange]) {
        parts[index].append(delta, toStringAt: "text")
        changes.append(.textAppended(index, delta))
    }

    private mutating func appendDelta(
        _ fields: ChunkFields, kind: String, active: [String: Int], _ changes: inout [MessageChange]
    ) throws {
        let id = try fields.string("id")
        let delta = try fields.string("delta")
        let providerMetadata = try fields.providerMetadata()
        guard let index = active[id] else {
            throw MalformedChunk("\(fields.type) for \(kind) part \"\(id)\", which is not open (no \(kind)-start)")
        }
        parts[index].append(delta, toStringAt: "text")
        changes.append(.textAppended(index, delta))
        if let providerMetadata, parts[index]["providerMetadata"] != providerMetadata {
            parts[index]["providerMetadata"] = providerMetadata
            changes.append(.partChanged(index))
        }
    }

    private mutating func endText(_ fields: ChunkFields, kind: String, _ changes: inout [MessageChange]) throws {
        let id = try fields.string("id")
        let providerMetadata = try fields.providerMetadata()
        let open = kind == "text" ? activeText.removeValue(forKey: id) : activeReasoning.removeValue(forKey: id)
        guard let index = open else {
            throw MalformedChunk("\(fields.type) for \(kind) part \"\(id)\", which is not open (no \(kind)-start)")
        }
        if kind == "text" {
            parts[index]["state"] = "done"
            if let providerMetadata { parts[index]["providerMetadata"] = providerMetadata }
        } else {
            if let providerMetadata { parts[index]["providerMetadata"] = providerMetadata }
            parts[index]["state"] = "done"
        }
        changes.append(.partChanged(index))
    }

    private mutating func mergeMetadata(_ value: JSON?, _ changes: inout [MessageChange]) {
        guard let value, !value.isNull else { return }
        let incoming = value.inJavaScriptKeyOrder()
        metadata = metadata.map { MetadataMerge.merge($0, incoming) } ?? incoming
        changes.append(.metadataChanged)
    }

    /// `data-*` chunks. The chunk itself becomes the part, with its keys in the order the SDK's
    /// schema parse gives them: type, id, data, transient, then any others as they came.
    private mutating func applyData(_ fields: ChunkFields, _ changes: inout [MessageChange]) throws {
        let id = try fields.optionalString("id")
        let transient = try fields.optionalBool("transient")
        if transient == true { return }
        let data = fields.object["data"]
        if let id,
            let index = parts.firstIndex(where: { $0["type"] == .string(fields.type) && $0["id"] == .string(id) })
        {
            parts[index]["data"] = data.map { $0.inJavaScriptKeyOrder() }
            changes.append(.partChanged(index))
            return
        }
        var part = PartObject()
        part["type"] = .string(fields.type)
        if let id { part["id"] = .string(id) }
        if let data { part["data"] = data.inJavaScriptKeyOrder() }
        if let transient { part["transient"] = .bool(transient) }
        for (key, value) in fields.object where !part.has(key) { part[key] = value.inJavaScriptKeyOrder() }
        append(part, &changes)
    }

    // MARK: The message

    /// The message as the SDK holds it: `{id, metadata, role, parts}`.
    public var message: JSON {
        var out: [UInt8] = []
        writeMessage(to: &out)
        return (try? JSON.parse(bytes: out)) ?? .null
    }

    /// Writes the message as compact JSON, with extra keys appended at the end
    /// (`incomplete` from ps-parts --final).
    public func writeMessage(to out: inout [UInt8], extra: [(String, JSON)] = []) {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSON.writeString(id, to: &out)
        if let metadata {
            out.append(contentsOf: #","metadata":"#.utf8)
            metadata.write(to: &out)
        }
        out.append(contentsOf: #","role":"assistant","parts":["#.utf8)
        for (index, part) in parts.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            part.write(to: &out)
        }
        out.append(UInt8(ascii: "]"))
        for (key, value) in extra {
            out.append(UInt8(ascii: ","))
            JSON.writeString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            value.write(to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}
