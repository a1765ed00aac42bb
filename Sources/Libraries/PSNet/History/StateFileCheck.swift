import PSCore

/// Reads a state file's conversations, checking every field: a wrong one would otherwise make
/// every run write nothing (a `lastCreatedAt` that is not a date compares after every real
/// one) or everything again (an entry that is not an object), silently, forever. A file that
/// is wrong is refused with exit 3, naming the field and what to do.
enum StateFileCheck {
    static func conversations(in bytes: [UInt8], path: String) throws -> JSONObject {
        let advice = "fix it, or move \(path) away to export everything again"
        func refuse(_ what: String) -> ToolError {
            ToolError(.malformedInput, "\(path): \(what); \(advice)")
        }
        guard let json = try? JSON.parse(bytes: bytes), let top = json.objectValue else {
            throw refuse("not a ps-history state file (not a JSON object)")
        }
        if let version = top["version"], version.intValue != 1 && version.intValue != 2 {
            throw refuse("version is \(shown(version)), not 1 or 2")
        }
        guard let conversations = top["conversations"]?.objectValue else {
            throw refuse("conversations is missing or not an object")
        }
        for (key, entry) in conversations {
            let name = "conversations[\(JSON.string(key).serialized())]"
            guard let fields = entry.objectValue else { throw refuse("\(name) is \(shown(entry)), not an object") }
            guard let id = fields["lastMessageId"]?.stringValue, !id.isEmpty else {
                throw refuse("\(name).lastMessageId is missing or not a message id")
            }
            if let value = fields["lastCreatedAt"] {
                guard let date = value.stringValue, isTimestamp(date) else {
                    throw refuse("\(name).lastCreatedAt is \(shown(value)), not a date")
                }
            }
            if let value = fields["idsAtLastCreatedAt"] {
                guard let ids = value.arrayValue, ids.allSatisfy({ $0.stringValue != nil }) else {
                    throw refuse("\(name).idsAtLastCreatedAt is \(shown(value)), not a list of message ids")
                }
            }
            if let value = fields["anchorMessageId"], value.stringValue == nil {
                throw refuse("\(name).anchorMessageId is \(shown(value)), not a message id")
            }
            if let value = fields["nextOffset"] {
                guard let offset = value.intValue, offset >= 0 else {
                    throw refuse("\(name).nextOffset is \(shown(value)), not a count of messages")
                }
            }
        }
        return conversations
    }

    /// A value as JSON text, cut short: it goes into a one-line message.
    static func shown(_ value: JSON) -> String {
        let text = value.serialized()
        return text.count <= 60 ? text : String(text.prefix(57)) + "..."
    }

    /// An ISO 8601 date as servers write them (`2026-03-01T12:00:00.123Z`, an offset, or a
    /// space for the T): what the export compares timestamps with, as text.
    static func isTimestamp(_ text: String) -> Bool {
        let b = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Bool { range.upperBound <= b.count && b[range].allSatisfy { (0x30...0x39).contains($0) } }
        guard digits(0..<4), b.count >= 10, b[4] == 0x2D, digits(5..<7), b[7] == 0x2D, digits(8..<10) else { return false }
        if b.count == 10 { return true }
        guard b[10] == 0x54 || b[10] == 0x20, digits(11..<13), b.count >= 16, b[13] == 0x3A, digits(14..<16) else { return false }
        var i = 16
        if i < b.count, b[i] == 0x3A {
            guard digits(i + 1..<i + 3) else { return false }
            i += 3
            if i < b.count, b[i] == 0x2E {
                i += 1
                let start = i
                while i < b.count, (0x30...0x39).contains(b[i]) { i += 1 }
                guard i > start else { return false }
            }
        }
        if i == b.count { return true }
        if b[i] == 0x5A { return i + 1 == b.count }
        guard b[i] == 0x2B || b[i] == 0x2D, digits(i + 1..<i + 3) else { return false }
        i += 3
        if i < b.count, b[i] == 0x3A { i += 1 }
        return i == b.count || (digits(i..<i + 2) && i + 2 == b.count)
    }
}
