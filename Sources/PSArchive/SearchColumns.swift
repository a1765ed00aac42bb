import PSCore

/// The full-text columns of a message, computed from its parsed record exactly as the view
/// `message_text` computes them in SQL (so that removing a message from the index, which reads
/// the view, takes out what was put in). Only for the common shapes, where the two agree by
/// construction: parts that are objects with a string `type`, text and reasoning parts whose
/// `text` is a string without NUL, no tool part. Anything else is left to the view (nil).
public struct SearchColumns: Sendable, Equatable {
    /// The text parts' texts joined by newlines, else the record's `content` when it is a string.
    public var text: String?
    /// The reasoning parts' texts joined by newlines.
    public var reasoning: String?

    public init?(_ record: JSONObject) {
        var texts: [String] = [], reasonings: [String] = []
        if let parts = record["parts"] {
            guard let parts = parts.arrayValue else { return nil }
            for part in parts {
                guard let type = part["type"]?.stringValue else { return nil }
                let lowered = type.lowercased()
                if lowered.hasPrefix("tool-") || lowered == "dynamic-tool" { return nil }
                guard type == "text" || type == "reasoning" else { continue }
                guard let text = part["text"] else { continue }
                guard let string = text.stringValue, !string.utf8.contains(0) else { return nil }
                if type == "text" { texts.append(string) } else { reasonings.append(string) }
            }
        }
        if texts.isEmpty, let content = record["content"] {
            // json_type(record, '$.content') = 'text': a string (no NUL, as above).
            if let string = content.stringValue {
                guard !string.utf8.contains(0) else { return nil }
                text = string
            } else {
                text = nil
            }
        } else {
            text = texts.isEmpty ? nil : texts.joined(separator: "\n")
        }
        reasoning = reasonings.isEmpty ? nil : reasonings.joined(separator: "\n")
    }
}
