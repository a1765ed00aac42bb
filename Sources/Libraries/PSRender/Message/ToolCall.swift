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
        case "input-available": return name == "ask_user" ? "waiting for your answer" : "running"
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

    /// PageSpace's ask_user call (apps/web/src/lib/ai/tools/ask-user-tools.ts): its questions,
    /// each with a header and 2-4 options; nil for any other tool.
    var questions: [AskUserQuestion]? {
        guard name == "ask_user", let list = input?["questions"]?.arrayValue else { return nil }
        return list.map { question in
            AskUserQuestion(
                header: question["header"]?.stringValue ?? "",
                text: question["question"]?.stringValue ?? "",
                options: (question["options"]?.arrayValue ?? []).map {
                    (label: $0["label"]?.stringValue ?? "", description: $0["description"]?.stringValue)
                })
        }
    }

    /// The user's answers to an ask_user call, as words ("dismissed: …" when it was closed unanswered).
    var answers: [String] {
        guard let output else { return [] }
        if output["dismissed"]?.boolValue == true { return ["dismissed: " + (output["reason"]?.stringValue ?? "")] }
        return (output["answers"]?.arrayValue ?? []).compactMap { $0["selectedLabel"]?.stringValue ?? $0["otherText"]?.stringValue }
    }
}

struct AskUserQuestion {
    let header: String
    let text: String
    let options: [(label: String, description: String?)]

    /// "Scope: Which part…?" then "1. Label — description" per option.
    var lines: (question: String, options: [String]) {
        let question = header.isEmpty ? text : header + ": " + text
        let options = options.enumerated().map { index, option in
            "\(index + 1). " + option.label + (option.description.map { " — " + $0 } ?? "")
        }
        return (question, options)
    }
}
