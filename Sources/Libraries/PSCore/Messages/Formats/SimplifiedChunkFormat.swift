/// The simplified chunks of late-2025 PageSpace documentation (`text`, `tool-call` with `args`, `tool-result` with `result`, `finish` with `usage`), which some servers really send:
/// `{"type":"text","text"}`, `text-delta` without an id (`delta`, `textDelta` or `delta.text`),
/// `{"type":"reasoning","text"}`, `tool-call` (`args`), `tool-result` (`result`), `data`, and
/// `finish` with `usage`. Mapped onto UI stream chunks; `usage` is kept in the message metadata.
struct SimplifiedChunkFormat: Sendable {
    var runs = TextRuns()

    /// The UI chunks for `chunk`, or nil when it is not a simplified chunk (a real UI chunk, which
    /// is passed on after closing any open run).
    mutating func translate(_ chunk: JSONObject, type: String) throws -> [JSONObject]? {
        switch type {
        case "text" where chunk["id"] == nil:
            return runs.piece("text", try Self.text(chunk, keys: ["text"], type: type))
        case "text-delta" where chunk["id"] == nil:
            return runs.piece("text", try Self.text(chunk, keys: ["delta", "textDelta", "text"], type: type))
        case "reasoning" where chunk["id"] == nil:
            return runs.piece("reasoning", try Self.text(chunk, keys: ["text", "textDelta", "delta"], type: type))
        case "tool-call":
            let fields = ChunkFields(chunk, type: type)
            var out = JSONObject()
            out["type"] = "tool-input-available"
            out["toolCallId"] = .string(try fields.string("toolCallId"))
            out["toolName"] = .string(try fields.string("toolName"))
            out["input"] = chunk["args"] ?? chunk["input"]
            return runs.close() + [out]
        case "tool-result":
            let fields = ChunkFields(chunk, type: type)
            var out = JSONObject()
            out["type"] = "tool-output-available"
            out["toolCallId"] = .string(try fields.string("toolCallId"))
            out["output"] = chunk["result"] ?? chunk["output"]
            return runs.close() + [out]
        case "data":
            var data = chunk
            data["type"] = nil
            let value = chunk["data"] ?? .object(data)
            return runs.close() + [JSONObject([("type", .string(LegacyData.partType)), ("data", value)])]
        case "finish" where chunk["usage"] != nil:
            var out = chunk
            out["usage"] = nil
            let usage = JSON.object(JSONObject([("usage", chunk["usage"]!)]))
            out["messageMetadata"] = chunk["messageMetadata"].map { MetadataMerge.merge(usage, $0) } ?? usage
            return runs.close() + [out]
        default:
            let closing = runs.close()
            return closing.isEmpty ? nil : closing + [chunk]
        }
    }

    private static func text(_ chunk: JSONObject, keys: [String], type: String) throws -> String {
        for key in keys {
            if case .string(let text)? = chunk[key] { return text }
        }
        if case .string(let text)? = chunk["delta"]?["text"] { return text }
        throw MalformedChunk("\(type) chunk without its text")
    }
}
