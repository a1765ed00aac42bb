import PSCore

/// A reply as a plain OpenAI-compatible server sends it: streamed as chat.completion.chunk
/// objects, or whole as one chat.completion.
///
/// The stream: `{role:"assistant",content:""}`; reasoning as `reasoning_content` deltas (as
/// llama.cpp and DeepSeek send it); text as `content` deltas; each tool call opened with
/// `{index,id,type:"function",function:{name,arguments:""}}` and its arguments following in
/// fragments `{index,function:{arguments}}`; one finish chunk (`stop` or `tool_calls`); with
/// `stream_options.include_usage`, `"usage":null` on every chunk and a last chunk with no
/// choices and the usage.
struct OpenAIChunks {
    let id: String
    let model: String
    let created: Int64
    let includeUsage: Bool

    func chunks(for segments: [ReplySegment], promptTokens: Int) -> [JSON] {
        var out = [chunk(["role": "assistant", "content": ""])]
        var toolIndex = 0
        for segment in segments {
            switch segment {
            case .reasoning(let text):
                out += ChunkScript.textPieces(text).map { chunk(["reasoning_content": .string($0)]) }
            case .text(let text):
                out += ChunkScript.textPieces(text).map { chunk(["content": .string($0)]) }
            case .tool(let call):
                let index = JSON.integer(Int64(toolIndex))
                out.append(chunk(["tool_calls": [[
                    "index": index, "id": .string(call.callID), "type": "function",
                    "function": ["name": .string(call.name), "arguments": ""],
                ]]]))
                for piece in ChunkScript.pieces(ofJSON: call.input.serialized()) {
                    out.append(chunk(["tool_calls": [["index": index, "function": ["arguments": .string(piece)]]]]))
                }
                toolIndex += 1
            }
        }
        out.append(chunk([:], finishReason: .string(Self.finishReason(segments))))
        if includeUsage {
            out.append([
                "id": .string(id), "object": "chat.completion.chunk", "created": .integer(created),
                "model": .string(model), "choices": [], "usage": Self.usage(segments, promptTokens: promptTokens),
            ])
        }
        return out
    }

    /// The non-streaming answer: the same reply as one message.
    func completion(for segments: [ReplySegment], promptTokens: Int) -> JSON {
        var message = JSONObject([("role", "assistant")])
        let text = segments.compactMap { if case .text(let text) = $0 { return text } else { return nil } }.joined()
        message["content"] = text.isEmpty ? .null : .string(text)
        let reasoning = segments.compactMap { if case .reasoning(let text) = $0 { return text } else { return nil } }
        if !reasoning.isEmpty { message["reasoning_content"] = .string(reasoning.joined()) }
        let calls: [JSON] = segments.compactMap { segment in
            guard case .tool(let call) = segment else { return nil }
            return [
                "id": .string(call.callID), "type": "function",
                "function": ["name": .string(call.name), "arguments": .string(call.input.serialized())],
            ]
        }
        if !calls.isEmpty { message["tool_calls"] = .array(calls) }
        return [
            "id": .string(id), "object": "chat.completion", "created": .integer(created), "model": .string(model),
            "choices": [[
                "index": 0, "message": .object(message), "logprobs": .null,
                "finish_reason": .string(Self.finishReason(segments)),
            ]],
            "usage": Self.usage(segments, promptTokens: promptTokens),
        ]
    }

    static func finishReason(_ segments: [ReplySegment]) -> String {
        segments.contains { if case .tool = $0 { return true } else { return false } } ? "tool_calls" : "stop"
    }

    /// Token counts estimated the usual rough way: a token per four bytes of text.
    static func tokens(_ text: String) -> Int { (text.utf8.count + 3) / 4 }

    static func usage(_ segments: [ReplySegment], promptTokens: Int) -> JSON {
        let completion = segments.reduce(0) { total, segment in
            switch segment {
            case .reasoning(let text), .text(let text): return total + tokens(text)
            case .tool(let call): return total + tokens(call.name) + tokens(call.input.serialized())
            }
        }
        return [
            "prompt_tokens": .integer(Int64(promptTokens)), "completion_tokens": .integer(Int64(completion)),
            "total_tokens": .integer(Int64(promptTokens + completion)),
        ]
    }

    private func chunk(_ delta: JSON, finishReason: JSON = .null) -> JSON {
        var object = JSONObject([
            ("id", .string(id)), ("object", "chat.completion.chunk"), ("created", .integer(created)),
            ("model", .string(model)),
            ("choices", [["index": 0, "delta": delta, "logprobs": .null, "finish_reason": finishReason]]),
        ])
        if includeUsage { object["usage"] = .null }
        return .object(object)
    }
}
