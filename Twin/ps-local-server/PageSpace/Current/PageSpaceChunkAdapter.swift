import PSCore

/// The current server's `/api/v1/chat/completions` stream: each AI SDK UI chunk adapted as
/// apps/web/src/lib/ai/openai-api/adapt-to-openai-chunk.ts does (with adapt-tool-input-part,
/// adapt-tool-result-part and resolve-finish-reason), the per-step tool index and finish
/// state kept as the route keeps them, and build-tool-summary-event.ts's event last.
///
/// What goes out: `start` → `{role:"assistant",content:""}`; `text-delta` → `{content}`;
/// `tool-input-available` → one `tool_calls` delta with the whole arguments;
/// `tool-output-available` → `{role:"tool",tool_call_id,tool_result}`; a `finish-step`
/// after tool calls → `finish_reason:"tool_calls"`; `finish` → `finish_reason:"stop"`, or
/// `"tool_calls"` when the last step called one of the caller's own tools (route.ts:648-686).
/// Reasoning, text and tool-input starts and deltas, and the other chunks send nothing.
struct PageSpaceChunkAdapter: CompletionChunkMapper {
    let id: String
    let model: String
    let created: Int64
    private var stepToolCallIndex = 0
    private var stepHadToolCalls = false
    private var toolCalls: [JSON] = []
    private var stepCount = 0
    let clientToolNames: Set<String>
    private var hadClientToolThisStep = false
    private var streamEndedOnClientTool = false

    init(id: String, model: String, created: Int64, clientToolNames: Set<String> = []) {
        self.id = id
        self.model = model
        self.created = created
        self.clientToolNames = clientToolNames
    }

    mutating func map(_ chunk: JSON) -> [JSON] {
        let type = chunk["type"]?.stringValue ?? ""
        if type == "start-step" {
            stepToolCallIndex = 0
            stepHadToolCalls = false
            hadClientToolThisStep = false
            stepCount += 1
        }
        let toolCallIndex = stepToolCallIndex
        if type == "tool-input-available" {
            stepHadToolCalls = true
            stepToolCallIndex += 1
            toolCalls.append(["toolCallId": chunk["toolCallId"] ?? "", "toolName": chunk["toolName"] ?? ""])
            if clientToolNames.contains(chunk["toolName"]?.stringValue ?? "") { hadClientToolThisStep = true }
        }
        if type == "finish-step" && hadClientToolThisStep { streamEndedOnClientTool = true }
        switch type {
        case "start":
            return [make(["role": "assistant", "content": ""], finishReason: .null)]
        case "text-delta":
            return [make(["content": chunk["delta"] ?? ""], finishReason: .null)]
        case "tool-input-available":
            let call: JSON = [
                "index": .integer(Int64(toolCallIndex)), "id": chunk["toolCallId"] ?? "", "type": "function",
                "function": ["name": chunk["toolName"] ?? "", "arguments": .string((chunk["input"] ?? .null).serialized())],
            ]
            return [make(["tool_calls": [call]], finishReason: .null)]
        case "tool-output-available":
            let output = chunk["output"] ?? .null
            let result = output.stringValue ?? output.serialized()
            return [make(
                ["role": "tool", "tool_call_id": chunk["toolCallId"] ?? "", "tool_result": .string(result)],
                finishReason: .null)]
        case "finish-step":
            return stepHadToolCalls ? [make([:], finishReason: "tool_calls")] : []
        case "finish":
            return [make([:], finishReason: streamEndedOnClientTool ? "tool_calls" : "stop")]
        default:
            return []
        }
    }

    /// The `x_pagespace_tool_summary` event, sent only when the reply called tools.
    func trailer() -> [JSON] {
        guard !toolCalls.isEmpty else { return [] }
        return [[
            "object": "chat.completion.chunk", "choices": [],
            "x_pagespace_tool_summary": ["toolCalls": .array(toolCalls), "stepCount": .integer(Int64(stepCount))],
        ]]
    }

    private func make(_ delta: JSON, finishReason: JSON) -> JSON {
        [
            "id": .string(id), "object": "chat.completion.chunk", "created": .integer(created), "model": .string(model),
            "choices": [["index": 0, "delta": delta, "finish_reason": finishReason]],
        ]
    }
}
