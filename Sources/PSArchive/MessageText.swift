import PSCore

/// The searchable text of a message record, in the four columns the archive indexes: its text
/// (text parts, else a string `content`), its reasoning, the names of the tools it called, and
/// their input and output. The SQLite store reads the same out of each record in SQL (the view
/// `message_text`); a store that indexes text it is given (PostgreSQL) takes it from here.
public struct MessageText: Sendable, Equatable {
    public var text = ""
    public var reasoning = ""
    public var tool = ""
    public var toolIO = ""

    public init(record: String) {
        guard let message = try? JSON.parse(record) else { return }
        var texts: [String] = [], reasonings: [String] = [], tools: [String] = [], io: [String] = []
        for part in message["parts"]?.arrayValue ?? [] {
            guard let type = part["type"]?.stringValue else { continue }
            if type == "text" {
                if let text = part["text"]?.stringValue { texts.append(text) }
            } else if type == "reasoning" {
                if let text = part["text"]?.stringValue { reasonings.append(text) }
            } else if type.hasPrefix("tool-") || type == "dynamic-tool" {
                tools.append(part["toolName"]?.stringValue ?? String(type.dropFirst(5)))
                io.append(Self.flat(part["input"]) + "\n" + Self.flat(part["output"]))
            }
        }
        text = texts.isEmpty ? message["content"]?.stringValue ?? "" : texts.joined(separator: "\n")
        reasoning = reasonings.joined(separator: "\n")
        tool = tools.joined(separator: " ")
        toolIO = io.joined(separator: "\n")
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
