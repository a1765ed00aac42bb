import PSCore

/// What one input line means to the archive: a message to store (new or updated), a deletion,
/// or a conversation (from `ps-history --list`, for its title).
public enum ArchiveRecord {
    case message(ArchivedMessage)
    case deletion(source: String, id: String)
    case conversation(source: String, id: String, title: String?, record: String)

    /// Reads one NDJSON line. `source` names where records without an `origin` key came from.
    /// A line that is none of the three kinds throws a message for the caller to number.
    public static func read(_ line: UnsafeRawBufferPointer, source: String) throws -> ArchiveRecord {
        let value: JSON
        do {
            value = try JSON.parse(line)
        } catch let error as JSONParseError {
            throw RecordError("not JSON (\(error.message))")
        }
        guard var object = value.objectValue else { throw RecordError("not a record (a JSON object)") }
        guard Self.nests(value, within: maximumDepth) else {
            throw RecordError("nested deeper than \(maximumDepth) levels (the most the archive's SQLite reads)")
        }
        guard let id = object["id"]?.stringValue, !id.isEmpty else { throw RecordError("a record without a string \"id\"") }
        let source = object["origin"]?.stringValue ?? source
        if object["deleted"]?.boolValue == true && object["role"] == nil {
            return .deletion(source: source, id: id)
        }
        if let role = object["role"] {
            guard let role = role.stringValue else { throw RecordError("a message whose \"role\" is not a string") }
            let conversation = (object["conversationId"] ?? object["metadata"]?["conversationId"])?.stringValue
            var text = String(decoding: line, as: UTF8.self)
            // The archive keeps the message as it is now: an update's mark is not part of it. A
            // key written with an escape ("t\u0065xt") is written plainly: SQLite's JSON
            // functions, through which the index's view reads a record, compare keys as written.
            if object["updated"] != nil || hasEscapedKey(line) {
                object["updated"] = nil
                var bytes: [UInt8] = []
                JSON.object(object).write(to: &bytes)
                text = String(decoding: bytes, as: UTF8.self)
            }
            var searchText = MessageText(object)
            // The view reads "\u0000" as "\u0020" (SQLite's JSON functions end a string at a NUL).
            if containsNULEscape(line) { searchText.matchesView = false }
            return .message(ArchivedMessage(source: source, id: id, conversationId: conversation, role: role,
                                            createdAt: object["createdAt"]?.stringValue, record: text,
                                            searchText: searchText))
        }
        if object["title"] != nil {
            return .conversation(source: source, id: id, title: object["title"]?.stringValue,
                                 record: String(decoding: line, as: UTF8.self))
        }
        throw RecordError("neither a message (\"role\"), a deletion (\"deleted\":true) nor a conversation (\"title\")")
    }

    /// The deepest nesting of arrays and objects a record may have (the record itself is the
    /// first level): what SQLite's JSON functions read (JSON_MAX_DEPTH: 2000 in the SQLite
    /// linked, 1000 in later ones, which may open the same file), and the archive's index reads
    /// every message through them. A deeper record could be stored, but then no search that
    /// meets it, nor any update or deletion of it, would work.
    public static let maximumDepth = 1000

    /// Whether no array or object in `value` lies more than `levels` levels deep.
    static func nests(_ value: JSON, within levels: Int) -> Bool {
        switch value {
        case .array(let items): return levels > 0 && items.allSatisfy { nests($0, within: levels - 1) }
        case .object(let object): return levels > 0 && object.allSatisfy { nests($0.value, within: levels - 1) }
        default: return true
        }
    }

    /// Whether an object key of `line` (valid JSON) holds an escape. A backslash is always in a
    /// string: the string is a key when a colon follows it.
    static func hasEscapedKey(_ line: UnsafeRawBufferPointer) -> Bool {
        var from = 0
        while let backslash = ByteSearch.first(UInt8(ascii: "\\"), in: line, from: from) {
            var index = backslash
            while index < line.count && line[index] != UInt8(ascii: "\"") {
                index += line[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            index += 1
            while index < line.count && jsonWhitespace.contains(line[index]) { index += 1 }
            if index < line.count && line[index] == UInt8(ascii: ":") { return true }
            from = index
        }
        return false
    }

    private static let jsonWhitespace: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]

    /// Whether `line` holds the six characters \u0000 (a NUL, or a backslash and "u0000").
    static func containsNULEscape(_ line: UnsafeRawBufferPointer) -> Bool {
        var from = 0
        while let backslash = ByteSearch.first(UInt8(ascii: "\\"), in: line, from: from) {
            if line[(backslash + 1)...].starts(with: "u0000".utf8) { return true }
            from = backslash + 1
        }
        return false
    }
}

public struct RecordError: Error {
    public let message: String
    init(_ message: String) { self.message = message }
}

/// A message record as stored: its key (source and id), the columns searches filter on, and
/// the record itself, written back unchanged by an export.
public struct ArchivedMessage: Sendable {
    public var source: String
    public var id: String
    public var conversationId: String?
    public var role: String
    public var createdAt: String?
    public var record: String
    /// Its text, reasoning and tools, as indexed.
    public var searchText: MessageText
    /// The same where SQLite's view computes the same (nil: the SQLite store lets the view do it).
    public var columns: MessageText? { searchText.matchesView ? searchText : nil }

    public init(source: String, id: String, conversationId: String?, role: String, createdAt: String?,
                record: String, searchText: MessageText) {
        self.source = source
        self.id = id
        self.conversationId = conversationId
        self.role = role
        self.createdAt = createdAt
        self.record = record
        self.searchText = searchText
    }
}
