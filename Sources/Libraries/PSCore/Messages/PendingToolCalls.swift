/// The tool calls of a message that have no result: a reply that asks its client to run a
/// tool (an OpenAI-compatible server's `finish_reason:"tool_calls"`, or a call the stream
/// left open). ps-send runs only the tools it is given (--tool, --mcp): for any other such a reply stops there.
public enum PendingToolCalls {
    /// The names of the tools called without an output, an error or a denial, in order.
    public static func names(in message: JSON) -> [String] {
        var names: [String] = []
        for part in message["parts"]?.arrayValue ?? [] {
            guard let type = part["type"]?.stringValue else { continue }
            let name: String
            if type == "dynamic-tool" {
                name = part["toolName"]?.stringValue ?? "tool"
            } else if type.hasPrefix("tool-") {
                name = String(type.dropFirst("tool-".count))
            } else {
                continue
            }
            let answered = part["output"] != nil || part["errorText"] != nil
                || ["output-available", "output-error", "output-denied"].contains(part["state"]?.stringValue ?? "")
            if !answered && !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// What to say of such a reply: "it asks for the tool read_page, which this client does not run".
    public static func detail(_ names: [String]) -> String {
        let list = names.count == 1 ? "the tool " + names[0] : "the tools " + names.joined(separator: ", ")
        return "it asks for \(list), which this client does not run (the reply stops there)"
    }
}
