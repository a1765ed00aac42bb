import Foundation
import Testing
import TestSupport

/// A chat.completion.chunk stream read as an OpenAI client reads it: every `data:` line but
/// the last must be a JSON object, `[DONE]` must come last and once; the deltas are added up.
struct CompletionStreamReading {
    struct ToolCall {
        var id: String?
        var type: String?
        var name: String?
        var fragments: [String] = []
        var arguments: String { fragments.joined() }
    }

    var chunks: [[String: Any]] = []
    var content = ""
    var reasoning = ""
    /// By `index`, in the order first seen.
    var toolCalls: [Int: ToolCall] = [:]
    var toolResults: [[String: Any]] = []
    /// Every non-null finish_reason, in order.
    var finishReasons: [String] = []
    /// The chunks with no choices (usage, PageSpace's tool summary).
    var choiceless: [[String: Any]] = []

    init(_ reply: HTTPReply, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let data = reply.eventData
        #expect(data.last == "[DONE]", "stream does not end with [DONE]", sourceLocation: sourceLocation)
        #expect(data.filter { $0 == "[DONE]" }.count == 1, sourceLocation: sourceLocation)
        for line in data where line != "[DONE]" {
            let parsed = try? JSONSerialization.jsonObject(with: Data(line.utf8))
            let chunk = try #require(parsed as? [String: Any], "not a JSON object: \(line)", sourceLocation: sourceLocation)
            #expect(chunk["object"] as? String == "chat.completion.chunk", sourceLocation: sourceLocation)
            chunks.append(chunk)
            let choices = try #require(chunk["choices"] as? [[String: Any]], sourceLocation: sourceLocation)
            guard let choice = choices.first else {
                choiceless.append(chunk)
                continue
            }
            #expect(choice["index"] as? Int == 0, sourceLocation: sourceLocation)
            if let reason = choice["finish_reason"] as? String { finishReasons.append(reason) }
            let delta = try #require(choice["delta"] as? [String: Any], sourceLocation: sourceLocation)
            content += delta["content"] as? String ?? ""
            reasoning += delta["reasoning_content"] as? String ?? ""
            if delta["tool_result"] != nil { toolResults.append(delta) }
            for call in delta["tool_calls"] as? [[String: Any]] ?? [] {
                let index = try #require(call["index"] as? Int, sourceLocation: sourceLocation)
                var entry = toolCalls[index] ?? ToolCall()
                if let id = call["id"] as? String { entry.id = id }
                if let type = call["type"] as? String { entry.type = type }
                let function = call["function"] as? [String: Any]
                if let name = function?["name"] as? String { entry.name = name }
                if let fragment = function?["arguments"] as? String, !fragment.isEmpty { entry.fragments.append(fragment) }
                toolCalls[index] = entry
            }
        }
    }

    /// The JSON object a tool call's arguments add up to.
    func arguments(_ index: Int) throws -> [String: Any] {
        let text = try #require(toolCalls[index]?.arguments)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }
}
