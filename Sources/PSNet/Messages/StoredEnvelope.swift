import PSCore

/// Rebuilds UIMessage `parts` from PageSpace's stored form, as the server's history endpoints
/// do: `content` holding a JSON envelope `{textParts, partsOrder, originalContent, fileParts?,
/// dataParts?}` with the tool calls and results in `toolCalls`/`toolResults`; or `content` as
/// plain text. Messages that already have `parts` pass unchanged.
///
/// A minimal conversion for ps-history; the full normaliser belongs in PSCore/Messages.
public enum StoredEnvelope {
    public static func normalise(_ message: JSON) -> JSON {
        guard var object = message.objectValue, object["parts"]?.arrayValue == nil,
              let content = object["content"]?.stringValue else { return message }
        let calls = object["toolCalls"]?.arrayValue ?? []
        let results = object["toolResults"]?.arrayValue ?? []
        var parts: [JSON]
        if let envelope = try? JSON.parse(content), envelope["textParts"] != nil || envelope["partsOrder"] != nil {
            parts = rebuild(envelope: envelope, calls: calls, results: results)
        } else {
            parts = content.isEmpty ? [] : [["type": "text", "text": .string(content)]]
            // Tool calls without an order: after the text, as they were made.
            parts += calls.compactMap { toolPart(id: $0["toolCallId"]?.stringValue, name: nil, calls: calls, results: results) }
        }
        object["content"] = nil
        object["toolCalls"] = nil
        object["toolResults"] = nil
        object["parts"] = .array(parts)
        return .object(object)
    }

    static func rebuild(envelope: JSON, calls: [JSON], results: [JSON]) -> [JSON] {
        let texts = envelope["textParts"]?.arrayValue ?? []
        let files = envelope["fileParts"]?.arrayValue ?? []
        let data = envelope["dataParts"]?.arrayValue ?? []
        guard let order = envelope["partsOrder"]?.arrayValue else {
            return texts.compactMap { text in text.stringValue.flatMap { $0.isEmpty ? nil : ["type": "text", "text": .string($0)] } }
        }
        var nextText = 0, nextFile = 0, nextData = 0
        var parts: [JSON] = []
        for entry in order {
            guard let type = entry["type"]?.stringValue else { continue }
            switch type {
            case "text":
                defer { nextText += 1 }
                if nextText < texts.count, let text = texts[nextText].stringValue, !text.isEmpty {
                    parts.append(["type": "text", "text": .string(text)])
                }
            case "step-start":
                continue
            case "file":
                if nextFile < files.count { parts.append(files[nextFile]) }
                nextFile += 1
            default:
                if type.hasPrefix("tool-") || type == "dynamic-tool" {
                    let name = type.hasPrefix("tool-") ? String(type.dropFirst(5)) : nil
                    if let part = toolPart(id: entry["toolCallId"]?.stringValue, name: name, calls: calls, results: results) {
                        parts.append(part)
                    }
                } else if type.hasPrefix("data-") {
                    if nextData < data.count { parts.append(data[nextData]) }
                    nextData += 1
                }
            }
        }
        return parts
    }

    /// A `tool-NAME` part from the stored call and result with this id.
    static func toolPart(id: String?, name: String?, calls: [JSON], results: [JSON]) -> JSON? {
        guard let id else { return nil }
        let call = calls.first { $0["toolCallId"]?.stringValue == id }
        let result = results.first { $0["toolCallId"]?.stringValue == id }
        guard let toolName = name ?? call?["toolName"]?.stringValue ?? result?["toolName"]?.stringValue else { return nil }
        var part = JSONObject()
        part["type"] = .string("tool-" + toolName)
        part["toolCallId"] = .string(id)
        part["input"] = call?["input"] ?? call?["args"] ?? .object(JSONObject())
        if let result {
            if result["isError"]?.boolValue == true {
                part["state"] = "output-error"
                part["errorText"] = .string((result["output"] ?? result["result"])?.stringValue ?? "tool failed")
            } else {
                part["state"] = "output-available"
                part["output"] = result["output"] ?? result["result"] ?? .null
            }
        } else {
            part["state"] = "input-available"
        }
        return .object(part)
    }
}
