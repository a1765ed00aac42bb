import PSCore

/// Cuts a reply into the AI SDK UI message stream chunks a PageSpace server sends: v6 for
/// the current dialect, v5 for the legacy one (the same chunk names; v6 adds `finishReason`).
enum ChunkScript {
    static func chunks(for segments: [ReplySegment], messageID: String, dialect: Dialect) -> [JSON] {
        var out: [JSON] = [["type": "start", "messageId": .string(messageID)], ["type": "start-step"]]
        var textCount = 0, reasoningCount = 0
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .reasoning(let text):
                reasoningCount += 1
                appendBlock(kind: "reasoning", id: "reasoning-\(reasoningCount)", text: text, to: &out)
            case .text(let text):
                textCount += 1
                appendBlock(kind: "text", id: "text-\(textCount)", text: text, to: &out)
            case .tool(let call):
                let callID = JSON.string(call.callID)
                out.append(["type": "tool-input-start", "toolCallId": callID, "toolName": .string(call.name)])
                for piece in pieces(ofJSON: call.input.serialized()) {
                    out.append(["type": "tool-input-delta", "toolCallId": callID, "inputTextDelta": .string(piece)])
                }
                out.append([
                    "type": "tool-input-available", "toolCallId": callID, "toolName": .string(call.name),
                    "input": call.input,
                ])
                // A client-side tool (ask_user) has no execute: the call stays open, the turn ends.
                guard call.output != .null else { continue }
                out.append(["type": "tool-output-available", "toolCallId": callID, "output": call.output])
                // The model sees the tool result in a new step, as the AI SDK runs multi-step calls.
                if index < segments.count - 1 {
                    out.append(["type": "finish-step"])
                    out.append(["type": "start-step"])
                }
            }
        }
        out.append(["type": "finish-step"])
        // Today's server: runAgentWithRetry suppresses streamText's own finish and ends every
        // turn with a bare one (apps/web/src/lib/ai/core/run-agent-with-retry.ts:185-186, 297);
        // the late-2025 one's v5 finish has no reason either.
        out.append(["type": "finish"])
        return out
    }

    private static func appendBlock(kind: String, id: String, text: String, to out: inout [JSON]) {
        let id = JSON.string(id)
        out.append(["type": .string(kind + "-start"), "id": id])
        for piece in textPieces(text) {
            out.append(["type": .string(kind + "-delta"), "id": id, "delta": .string(piece)])
        }
        out.append(["type": .string(kind + "-end"), "id": id])
    }

    /// Splits text after every third space, as a model emits a few tokens per delta. Cuts
    /// fall only after an ASCII space, so multi-byte characters are never split.
    static func textPieces(_ text: String, wordsPerPiece: Int = 3) -> [String] {
        var pieces: [String] = []
        var current: [UInt8] = []
        var spaces = 0
        for byte in text.utf8 {
            current.append(byte)
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") {
                spaces += 1
                if spaces == wordsPerPiece {
                    pieces.append(String(decoding: current, as: UTF8.self))
                    current.removeAll(keepingCapacity: true)
                    spaces = 0
                }
            }
        }
        if !current.isEmpty { pieces.append(String(decoding: current, as: UTF8.self)) }
        return pieces
    }

    /// Splits serialized JSON into three pieces on character boundaries (streamed tool input).
    static func pieces(ofJSON text: String) -> [String] {
        let bytes = Array(text.utf8)
        guard bytes.count >= 6 else { return [text] }
        var cuts = [bytes.count / 3, 2 * bytes.count / 3]
        for i in cuts.indices {
            while cuts[i] < bytes.count, bytes[cuts[i]] & 0xC0 == 0x80 { cuts[i] += 1 }
        }
        let bounds = [0] + cuts + [bytes.count]
        return (0..<3).map { String(decoding: bytes[bounds[$0]..<bounds[$0 + 1]], as: UTF8.self) }
    }
}
