import PSCore

/// What a UIMessage part is, read from its `type`.
enum PartKind: Equatable {
    case text
    case reasoning
    case stepStart
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
        case "dynamic-tool": self = .tool(name: part["toolName"]?.stringValue ?? "tool")
        case "source-url": self = .sourceURL
        case "source-document": self = .sourceDocument
        case "file": self = .file
        default:
            if type.hasPrefix("tool-") {
                self = .tool(name: String(type.dropFirst(5)))
            } else if type.hasPrefix("data-") {
                self = .data(name: String(type.dropFirst(5)))
            } else {
                self = .other(type)
            }
        }
    }

    /// Parts shown as one or a few short lines; consecutive ones are not separated by blank lines.
    var isCompact: Bool {
        switch self {
        case .text, .reasoning, .stepStart: return false
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
