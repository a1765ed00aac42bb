import PSCore

/// What a UIMessage part is, read from its `type`.
enum PartKind: Equatable {
    case text
    case reasoning
    case stepStart
    /// A tool call PageSpace's own chat hides: nothing is shown of it.
    case hiddenTool
    case tool(name: String)
    case sourceURL
    case sourceDocument
    case file
    case data(name: String)
    case other(String)

    init(_ part: JSONObject) {
        let type = part["type"]?.stringValue ?? ""
        switch type {
        case "text": self = .text
        case "reasoning": self = .reasoning
        case "step-start": self = .stepStart
        case "dynamic-tool": self = Self.tool(part["toolName"]?.stringValue ?? "tool", part)
        case "source-url": self = .sourceURL
        case "source-document": self = .sourceDocument
        case "file": self = .file
        default:
            if type.hasPrefix("tool-") {
                self = Self.tool(String(type.dropFirst(5)), part)
            } else if type.hasPrefix("data-") {
                self = .data(name: String(type.dropFirst(5)))
            } else {
                self = .other(type)
            }
        }
    }

    /// A tool call, or nothing for the control-flow calls PageSpace's chat never shows
    /// (apps/web/src/components/ai/shared/chat/useGroupedParts.ts:94-107 and
    /// tool-calls/tool-significance.ts:47, tool-call-dispatch.ts:64-75): the `finish` tool that
    /// ends every turn, and `tool_search`, also when `execute_tool` runs it.
    private static func tool(_ name: String, _ part: JSONObject) -> PartKind {
        if name == "finish" || name == "tool_search" { return .hiddenTool }
        if name == "execute_tool" {
            // Its input as an object, or as the JSON text the chat parses (safeJsonParse).
            let input = part["input"].flatMap { $0.stringValue.flatMap { try? JSON.parse(bytes: Array($0.utf8)) } ?? $0 }
            if input?["tool_name"]?.stringValue == "tool_search" { return .hiddenTool }
        }
        return .tool(name: name)
    }

    /// Parts shown as one or a few short lines; consecutive ones are not separated by blank lines.
    var isCompact: Bool {
        switch self {
        case .text, .reasoning, .stepStart, .hiddenTool: return false
        default: return true
        }
    }

    /// Whether the part can still change while the message streams: text until its state is
    /// `done`, a tool call until it has its result. Parts without a state (history) are finished.
    static func isFinished(_ part: JSONObject) -> Bool {
        let state = part["state"]?.stringValue
        switch PartKind(part) {
        case .text, .reasoning:
            return state == nil || state == "done"
        case .tool:
            switch state {
            case "output-available": return part["preliminary"]?.boolValue != true
            case "output-error", "output-denied", nil: return true
            default: return false
            }
        default:
            return true
        }
    }
}
