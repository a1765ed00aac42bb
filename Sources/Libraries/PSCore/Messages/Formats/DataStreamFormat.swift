/// The AI SDK v4 data stream (the AI SDK 4 `0:`…`d:` line protocol), as ps-sse gives it: `{"code":"0","value":…}`
/// per line. Mapped onto UI stream chunks: `0` text, `g` reasoning, `9` tool call, `b`/`c`
/// streamed tool input, `a` tool result, `3` error, `2` data (parts of type data-legacy), `8`
/// annotations (kept in metadata as `annotations`), `h` source, `k` file, `f` step start (its
/// messageId is the message's), `e` step finish, `d` finish (`usage` kept in metadata). `i`
/// (redacted reasoning) and `j` (reasoning signature) carry nothing to show and are skipped.
struct DataStreamFormat: Sendable {
    var runs = TextRuns()
    private var annotations: [JSON] = []

    /// The UI chunks for one line, and whether the line ends the message (`d`).
    mutating func translate(code: String, value: JSON) throws -> (chunks: [JSONObject], ends: Bool) {
        func object() throws -> JSONObject {
            guard case .object(let object) = value else { throw MalformedChunk("data stream line \(code): value is not an object") }
            return object
        }
        func string() throws -> String {
            guard case .string(let text) = value else { throw MalformedChunk("data stream line \(code): value is not a string") }
            return text
        }
        func chunk(_ pairs: [(String, JSON?)]) -> JSONObject {
            var object = JSONObject()
            for (key, value) in pairs { object[key] = value }
            return object
        }
        switch code {
        case "0": return (runs.piece("text", try string()), false)
        case "g": return (runs.piece("reasoning", try string()), false)
        case "i", "j": return ([], false)
        case "9":
            let call = try object()
            let fields = ChunkFields(call, type: "data stream line 9")
            return (runs.close() + [chunk([
                ("type", "tool-input-available"), ("toolCallId", .string(try fields.string("toolCallId"))),
                ("toolName", .string(try fields.string("toolName"))), ("input", call["args"]),
            ])], false)
        case "b":
            let call = try object()
            let fields = ChunkFields(call, type: "data stream line b")
            return (runs.close() + [chunk([
                ("type", "tool-input-start"), ("toolCallId", .string(try fields.string("toolCallId"))),
                ("toolName", .string(try fields.string("toolName"))),
            ])], false)
        case "c":
            let delta = try object()
            let fields = ChunkFields(delta, type: "data stream line c")
            return ([chunk([
                ("type", "tool-input-delta"), ("toolCallId", .string(try fields.string("toolCallId"))),
                ("inputTextDelta", .string(try fields.string("argsTextDelta"))),
            ])], false)
        case "a":
            let result = try object()
            let fields = ChunkFields(result, type: "data stream line a")
            return (runs.close() + [chunk([
                ("type", "tool-output-available"), ("toolCallId", .string(try fields.string("toolCallId"))),
                ("output", result["result"]),
            ])], false)
        case "3": return (runs.close() + [chunk([("type", "error"), ("errorText", .string(try string()))])], false)
        case "2":
            guard case .array(let items) = value else { throw MalformedChunk("data stream line 2: value is not an array") }
            return (runs.close() + items.map { chunk([("type", .string(LegacyData.partType)), ("data", $0)]) }, false)
        case "8":
            guard case .array(let items) = value else { throw MalformedChunk("data stream line 8: value is not an array") }
            annotations += items
            // Metadata arrays replace on merge, so send all annotations so far.
            return ([chunk([("type", "message-metadata"), ("messageMetadata", ["annotations": .array(annotations)])])], false)
        case "h":
            let source = try object()
            let fields = ChunkFields(source, type: "data stream line h")
            return (runs.close() + [chunk([
                ("type", "source-url"), ("sourceId", .string(try fields.string("id"))),
                ("url", .string(try fields.string("url"))), ("title", source["title"]),
                ("providerMetadata", source["providerMetadata"]),
            ])], false)
        case "k":
            let file = try object()
            let fields = ChunkFields(file, type: "data stream line k")
            let mediaType = try fields.string("mimeType")
            return (runs.close() + [chunk([
                ("type", "file"), ("url", .string("data:\(mediaType);base64,\(try fields.string("data"))")),
                ("mediaType", .string(mediaType)),
            ])], false)
        case "f":
            let step = try object()
            var chunks = runs.close()
            if case .string(let id)? = step["messageId"] { chunks.append(chunk([("type", "start"), ("messageId", .string(id))])) }
            chunks.append(chunk([("type", "start-step")]))
            return (chunks, false)
        case "e": return (runs.close() + [chunk([("type", "finish-step")])], false)
        case "d":
            let finish = try object()
            var reason: JSON? = nil
            if case .string(let text)? = finish["finishReason"], MessageAssembler.finishReasons.contains(text) {
                reason = .string(text)
            }
            let metadata: JSON? = finish["usage"].map { ["usage": $0] }
            return (runs.close() + [chunk([("type", "finish"), ("finishReason", reason), ("messageMetadata", metadata)])], true)
        default:
            throw MalformedChunk("data stream line with unknown type code \"\(code)\"")
        }
    }
}
