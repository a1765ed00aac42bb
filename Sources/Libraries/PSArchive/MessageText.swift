import PSCore

/// The searchable text of a message record, in the four columns the archive indexes (nil: the
/// record has none): its text (the text parts' texts joined by newlines, else a string
/// `content`), its reasoning (the reasoning parts' texts), the names of the tools it called
/// (space-separated) and their input and output. Read once per record, from the record as
/// ArchiveRecord parsed it.
///
/// The PostgreSQL store indexes these. The SQLite store computes the same columns from each
/// record in SQL (the view `message_text`, through which an update or deletion takes a message
/// out of its index), and indexes these instead only where they are that view's byte for byte:
/// `matchesView`, true for the common shapes, where the two agree by construction (parts that
/// are objects with a string `type`; text and reasoning parts whose `text` is a string without
/// NUL, or missing; no tool part). For the rest it lets the view do it.
public struct MessageText: Sendable, Equatable {
    public var text: String?
    public var reasoning: String?
    public var tool: String?
    public var toolIO: String?
    public var matchesView = true

    public init(_ record: JSONObject) {
        var texts: [String] = [], reasonings: [String] = [], tools: [String] = [], io: [String] = []
        let parts = record["parts"]
        if parts != nil && parts?.arrayValue == nil { matchesView = false }  // the view would walk an object's values
        for part in parts?.arrayValue ?? [] {
            guard let type = part["type"]?.stringValue else {
                matchesView = false
                continue
            }
            if type.lowercased().hasPrefix("tool-") || type == "dynamic-tool" {  // the view: LIKE 'tool-%', ignoring case
                tools.append(part["toolName"]?.stringValue ?? String(type.dropFirst(5)))
                io.append(Self.flat(part["input"]) + "\n" + Self.flat(part["output"]))
                matchesView = false
            } else if type == "text" || type == "reasoning", let value = part["text"], !value.isNull {
                guard let string = value.stringValue else {  // the view would write a number or object as text
                    matchesView = false
                    continue
                }
                if Self.hasNUL(string) { matchesView = false }
                if type == "text" { texts.append(string) } else { reasonings.append(string) }
            }
        }
        if texts.isEmpty {
            // The view: json_type(record, '$.content') = 'text', a string.
            text = record["content"]?.stringValue
            if let text, Self.hasNUL(text) { matchesView = false }
        } else {
            text = texts.joined(separator: "\n")
        }
        reasoning = reasonings.isEmpty ? nil : reasonings.joined(separator: "\n")
        tool = tools.isEmpty ? nil : tools.joined(separator: " ")
        toolIO = io.isEmpty ? nil : io.joined(separator: "\n")
    }

    /// Whether the string holds a NUL byte, found with memchr.
    private static func hasNUL(_ string: String) -> Bool {
        var string = string
        return string.withUTF8 { ByteSearch.first(0, in: UnsafeRawBufferPointer($0)) != nil }
    }

    /// A string as it is, anything else as JSON text.
    private static func flat(_ value: JSON?) -> String {
        guard let value, !value.isNull else { return "" }
        if let string = value.stringValue { return string }
        var bytes: [UInt8] = []
        value.write(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
