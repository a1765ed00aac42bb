/// OpenAI's streamed chat completions (`chat.completion.chunk` objects, as Ollama, llama.cpp,
/// vLLM and PageSpace's `/api/v1` send them) as UI stream chunks:
/// - the first chunk starts the message (its `id` is the message id);
/// - `delta.content` is text and `delta.reasoning_content` (or `delta.reasoning`) reasoning;
/// - `delta.tool_calls[{index, id, function:{name, arguments}}]` open a tool call by index, its
///   arguments arriving in pieces; the call's input is the whole arguments text parsed as JSON
///   once the choice finishes (the text itself when it is not JSON);
/// - PageSpace's `delta {role:"tool", tool_call_id, tool_result}` is that call's output;
/// - `finish_reason` ends the step (`stop`, `length`, `tool_calls`, `content_filter` become the
///   SDK's reasons) and the message is finished;
/// - a chunk with `usage` (and no choices) adds `usage` to the message metadata;
/// - `{"error":{message}}` is a stream error.
struct OpenAIChunkFormat: Sendable {
    var runs = TextRuns()
    private var started = false
    /// Open tool calls by their index in `tool_calls`: id, name and the arguments so far.
    private var calls: [Int: (id: String, name: String, arguments: String)] = [:]
    private var callOrder: [Int] = []

    /// Whether an event's data is one of these chunks.
    static func matches(_ data: JSONObject) -> Bool {
        if data["object"]?.stringValue == "chat.completion.chunk" { return true }
        return data["choices"]?.arrayValue != nil && data["type"] == nil
    }

    mutating func translate(_ data: JSONObject) throws -> [JSONObject] {
        if let error = data["error"] {
            let message = error["message"]?.stringValue ?? error.stringValue ?? error.serialized()
            return runs.close() + [JSONObject([("type", "error"), ("errorText", .string(message))])]
        }
        var chunks: [JSONObject] = []
        if !started {
            started = true
            var start = JSONObject([("type", "start")])
            start["messageId"] = data["id"].flatMap { $0.stringValue.map(JSON.string) }
            chunks.append(start)
        }
        for choice in data["choices"]?.arrayValue ?? [] {
            guard let object = choice.objectValue else { throw MalformedChunk("a choice that is not an object") }
            if let delta = object["delta"]?.objectValue { chunks += try translate(delta: delta) }
            if let reason = object["finish_reason"]?.stringValue { chunks += finish(reason) }
        }
        if let usage = data["usage"], usage.objectValue != nil {
            chunks.append(JSONObject([("type", "message-metadata"), ("messageMetadata", .object(JSONObject([("usage", usage)])))]))
        }
        return chunks
    }

    private mutating func translate(delta: JSONObject) throws -> [JSONObject] {
        var chunks: [JSONObject] = []
        for key in ["reasoning_content", "reasoning"] {
            if let text = delta[key]?.stringValue, !text.isEmpty { chunks += runs.piece("reasoning", text) }
        }
        if delta["role"]?.stringValue == "tool", let id = delta["tool_call_id"]?.stringValue {
            let result = delta["tool_result"] ?? delta["content"] ?? .null
            let output = result.stringValue.flatMap { try? JSON.parse($0) } ?? result
            // The call's input is whole before its result comes.
            var closing: [JSONObject] = []
            if let index = callOrder.first(where: { calls[$0]?.id == id }) {
                closing = inputAvailable(calls[index]!)
                calls[index] = nil
                callOrder.removeAll { $0 == index }
            }
            return chunks + runs.close() + closing
                + [JSONObject([("type", "tool-output-available"), ("toolCallId", .string(id)), ("output", output)])]
        }
        if let text = delta["content"]?.stringValue, !text.isEmpty { chunks += runs.piece("text", text) }
        for call in delta["tool_calls"]?.arrayValue ?? [] {
            guard let object = call.objectValue else { throw MalformedChunk("a tool call that is not an object") }
            let index = Int(object["index"]?.intValue ?? Int64(callOrder.last.map { $0 + 1 } ?? 0))
            let function = object["function"]?.objectValue
            if calls[index] == nil {
                guard let name = function?["name"]?.stringValue else {
                    throw MalformedChunk("tool call \(index) begins without a function name")
                }
                let id = object["id"]?.stringValue ?? "call-\(index)"
                calls[index] = (id, name, "")
                callOrder.append(index)
                chunks += runs.close()
                chunks.append(JSONObject([("type", "tool-input-start"), ("toolCallId", .string(id)), ("toolName", .string(name))]))
            }
            if let piece = function?["arguments"]?.stringValue, !piece.isEmpty {
                calls[index]!.arguments += piece
                chunks.append(JSONObject([
                    ("type", "tool-input-delta"), ("toolCallId", .string(calls[index]!.id)), ("inputTextDelta", .string(piece)),
                ]))
            }
        }
        return chunks
    }

    /// A call's whole input: its arguments text as JSON (the text itself when it is not JSON).
    private func inputAvailable(_ call: (id: String, name: String, arguments: String)) -> [JSONObject] {
        let input = call.arguments.isEmpty ? JSON.object(JSONObject()) : (try? JSON.parse(call.arguments)) ?? .string(call.arguments)
        return [JSONObject([
            ("type", "tool-input-available"), ("toolCallId", .string(call.id)), ("toolName", .string(call.name)), ("input", input),
        ])]
    }

    /// The choice ended: open calls get their whole input, the step and the message finish.
    private mutating func finish(_ reason: String) -> [JSONObject] {
        var chunks = runs.close()
        for index in callOrder {
            if let call = calls[index] { chunks += inputAvailable(call) }
        }
        calls = [:]
        callOrder = []
        let reasons = ["stop": "stop", "length": "length", "tool_calls": "tool-calls", "function_call": "tool-calls",
                       "content_filter": "content-filter"]
        chunks.append(JSONObject([("type", "finish-step")]))
        chunks.append(JSONObject([("type", "finish"), ("finishReason", .string(reasons[reason] ?? "other"))]))
        return chunks
    }
}
