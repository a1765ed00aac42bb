/// Turns whole messages, as servers store and return them, into UIMessages:
/// - a UIMessage (it has `parts`) stays as it is;
/// - PageSpace's stored envelope (`content` is the JSON text, or object, `{textParts, partsOrder,
///   originalContent, fileParts?, dataParts?}` with the tool calls and results in `toolCalls` /
///   `toolResults`) is rebuilt the way PageSpace's own history endpoints rebuild it
///   (apps/web/src/lib/ai/core/message-utils.ts): walk `partsOrder`, drop empty text, rebuild
///   `tool-*` parts from the calls and results, skip `step-start`;
/// - plain-string `content` (older rows, Lucid's `{id, role, content, created_at}`) becomes one
///   text part.
public enum MessageNormalizer {
    /// The messages a history line holds: a message, an array of them, `{messages:[…]}`, or a
    /// Lucid chat answer `{user_message, assistant_message}`. Nil when the line holds none.
    public static func messages(in record: JSON) -> [JSONObject]? {
        switch record {
        case .array(let items):
            let objects = items.compactMap(\.objectValue)
            guard !items.isEmpty, objects.count == items.count, objects.allSatisfy(isMessage) else { return nil }
            return objects
        case .object(let object):
            if isMessage(object) { return [object] }
            if case .array? = object["messages"], let inner = messages(in: object["messages"]!) { return inner }
            let lucid = ["user_message", "assistant_message"].compactMap { object[$0]?.objectValue }.filter(isMessage)
            return lucid.isEmpty ? nil : lucid
        default: return nil
        }
    }

    static func isMessage(_ object: JSONObject) -> Bool {
        guard case .string? = object["role"] else { return false }
        return object["event"] == nil
    }

    /// Keys that held the stored form and are replaced by `parts`.
    private static let storageKeys: Set<String> = ["content", "toolCalls", "toolResults", "tool_calls", "tool_results"]

    public static func normalize(_ message: JSONObject) -> JSON {
        if case .array? = message["parts"] { return .object(message) }
        let parts = rebuildParts(message)
        var out = JSONObject()
        out["id"] = message["id"] ?? ""
        out["role"] = message["role"]
        out["parts"] = .array(parts)
        for (key, value) in message where out[key] == nil && !storageKeys.contains(key) {
            out[key == "created_at" && message["createdAt"] == nil ? "createdAt" : key] = value
        }
        return .object(out)
    }

    private static func text(_ text: String) -> JSON {
        .object(JSONObject([("type", "text"), ("text", .string(text))]))
    }

    static func rebuildParts(_ message: JSONObject) -> [JSON] {
        switch message["content"] {
        case .string(let content)?:
            if let envelope = envelope(content) { return rebuild(envelope, message) }
            return [text(content)]
        case .object(let object)? where isEnvelope(object):
            return rebuild(object, message)
        case .array(let items)?:
            // Model-message content: an array of parts already.
            return items.filter { $0.objectValue != nil }
        default:
            return [text("")]
        }
    }

    static func isEnvelope(_ object: JSONObject) -> Bool {
        object["textParts"] != nil && object["partsOrder"] != nil
    }

    /// The envelope, when `content` is one. A message whose text merely looks like JSON stays text.
    static func envelope(_ content: String) -> JSONObject? {
        guard content.utf8.first == UInt8(ascii: "{"), let value = try? JSON.parse(content),
            case .object(let object) = value, isEnvelope(object)
        else { return nil }
        return object
    }

    /// A column that holds a JSON array, or the JSON text of one.
    private static func list(_ value: JSON?) -> [JSONObject] {
        switch value {
        case .array(let items)?: return items.compactMap(\.objectValue)
        case .string(let text)?:
            guard let parsed = try? JSON.parse(text), case .array(let items) = parsed else { return [] }
            return items.compactMap(\.objectValue)
        default: return []
        }
    }

    static func rebuild(_ envelope: JSONObject, _ message: JSONObject) -> [JSON] {
        var calls: [String: JSONObject] = [:]
        var results: [String: JSONObject] = [:]
        for call in list(message["toolCalls"] ?? message["tool_calls"]) {
            if let id = call["toolCallId"]?.stringValue { calls[id] = call }
        }
        for result in list(message["toolResults"] ?? message["tool_results"]) {
            if let id = result["toolCallId"]?.stringValue { results[id] = result }
        }
        let textParts = envelope["textParts"]?.arrayValue ?? []
        let fileParts = envelope["fileParts"]?.arrayValue ?? []
        let dataParts = envelope["dataParts"]?.arrayValue ?? []
        var textIndex = 0, fileIndex = 0, dataIndex = 0
        var parts: [JSON] = []
        for entry in envelope["partsOrder"]?.arrayValue ?? [] {
            guard let type = entry["type"]?.stringValue else { continue }
            if type == "text" {
                guard textIndex < textParts.count else { continue }
                if let content = textParts[textIndex].stringValue,
                    !content.unicodeScalars.allSatisfy(\.properties.isWhitespace)
                {
                    parts.append(text(content))
                }
                textIndex += 1
            } else if type == "file" {
                guard fileIndex < fileParts.count else { continue }
                let file = fileParts[fileIndex].objectValue ?? JSONObject()
                var part = JSONObject()
                part["type"] = "file"
                // A storageKey names a private upload the server would sign a URL for; keep it.
                part["url"] = file["url"] ?? ""
                part["mediaType"] = file["mediaType"] ?? "application/octet-stream"
                part["filename"] = file["filename"]
                part["storageKey"] = file["storageKey"]
                parts.append(.object(part))
                fileIndex += 1
            } else if type.hasPrefix("tool-"), let callId = entry["toolCallId"]?.stringValue {
                guard let call = calls[callId] else { continue }
                let result = results[callId]
                var part = JSONObject()
                part["type"] = .string(type)
                part["toolCallId"] = call["toolCallId"]
                part["toolName"] = call["toolName"]
                part["input"] = call["input"] ?? call["args"]
                // Results stored before states were recorded have none; they are outputs all the same.
                let state = result?["state"] ?? (result == nil ? "input-available" : "output-available")
                part["state"] = state
                if state == "output-error" {
                    if let errorText = result?["errorText"] { part["errorText"] = errorText }
                } else if let result {
                    part["output"] = result["output"] ?? result["result"]
                }
                parts.append(.object(part))
            } else if type.hasPrefix("data-") {
                guard dataIndex < dataParts.count else { continue }
                parts.append(dataParts[dataIndex])
                dataIndex += 1
            }
        }
        if parts.isEmpty { return [text(envelope["originalContent"]?.stringValue ?? "")] }
        return parts
    }
}
