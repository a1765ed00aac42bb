import PSCore

/// The facts about a tool call part that every format shows.
struct ToolCall {
    let name: String
    let state: String
    let input: JSON?
    let output: JSON?
    let errorText: String?

    init(_ part: JSONObject, name: String) {
        self.name = name
        state = part["state"]?.stringValue ?? ""
        input = part["input"] ?? part["rawInput"]
        output = part["output"]
        errorText = part["errorText"]?.stringValue
        approved = part["approval"]?["approved"]?.boolValue
        preliminary = part["preliminary"]?.boolValue == true
    }

    private let approved: Bool?
    private let preliminary: Bool

    /// The state in words.
    var stateLabel: String {
        switch state {
        case "input-streaming": return "receiving input"
        case "input-available": return "running"
        case "output-available": return preliminary ? "partial output" : "done"
        case "output-error": return "error"
        case "approval-requested": return "awaiting approval"
        case "approval-responded": return approved == false ? "not approved" : "approved"
        case "output-denied": return "denied"
        case "": return "called"
        default: return state
        }
    }

    var failed: Bool { state == "output-error" || state == "output-denied" || approved == false }
    var succeeded: Bool { state == "output-available" && !preliminary }

    var compactInput: String { input.map(JSONText.compact) ?? "" }
}
