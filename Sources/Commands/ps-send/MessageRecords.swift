import PSCore
import PSSend
import PSNet

/// Message records (UIMessages, one a line, as ps-history and ps-parts --final write them)
/// read from a file or stdin, for `--history`: each line a JSON object with a `role` of user,
/// assistant or system and its `parts` (or a plain `content`). Other records are skipped; a
/// line that is not a JSON object stops with exit 3 naming it.
enum MessageRecords {
    /// Each text goes through `secrets` (named by its record's line) before it can be sent.
    static func read(_ path: String, secrets: SecretCheck) throws -> [JSON] {
        let lines = RecordLineReader(try ChunkReader.open(path: path))
        var messages: [JSON] = []
        try lines.forEachLine { line, number in
            guard let record = try? JSON.parse(line), record.objectValue != nil else {
                throw ToolError(.malformedInput, "\(lines.name) line \(number) is not a JSON object")
            }
            guard let role = record["role"]?.stringValue, ["user", "assistant", "system"].contains(role) else { return }
            var message = JSONObject()
            message["id"] = record["id"] ?? .string(RandomID.messageID())
            message["role"] = .string(role)
            let source = "--history \(TerminalSafeText.sanitize(lines.name)) record \(number):"
            if let parts = record["parts"]?.arrayValue {
                // Every string of a part may be sent: a text, a tool call's input, its output.
                message["parts"] = .array(try parts.map { try passingStrings($0, secrets, source) })
            } else if let content = record["content"]?.stringValue {
                message["parts"] = [["type": "text", "text": .string(try secrets.pass(content, from: source))]]
            } else {
                return
            }
            messages.append(.object(message))
        }
        guard !messages.isEmpty else { throw ToolError(.malformedInput, "\(lines.name) holds no message records") }
        return messages
    }

    /// `value` with each string in it (at any depth) passed through `secrets`.
    private static func passingStrings(_ value: JSON, _ secrets: SecretCheck, _ source: String) throws -> JSON {
        switch value {
        case .string(let text): return .string(try secrets.pass(text, from: source))
        case .array(let items): return .array(try items.map { try passingStrings($0, secrets, source) })
        case .object(var object):
            for (key, item) in object { object[key] = try passingStrings(item, secrets, source) }
            return .object(object)
        default: return value
        }
    }
}
