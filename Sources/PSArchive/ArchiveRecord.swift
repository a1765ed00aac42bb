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
            value = try JSON.read(line)
        } catch let error as JSONParseError {
            throw RecordError("not JSON (\(error.message))")
        }
        guard var object = value.objectValue else { throw RecordError("not a record (a JSON object)") }
        guard let id = object["id"]?.stringValue, !id.isEmpty else { throw RecordError("a record without a string \"id\"") }
        let source = object["origin"]?.stringValue ?? source
        if object["deleted"]?.boolValue == true && object["role"] == nil {
            return .deletion(source: source, id: id)
        }
        if let role = object["role"] {
            guard let role = role.stringValue else { throw RecordError("a message whose \"role\" is not a string") }
            let conversation = (object["conversationId"] ?? object["metadata"]?["conversationId"])?.stringValue
            var text = String(decoding: line, as: UTF8.self)
            if object["updated"] != nil {
                // The archive keeps the message as it is now: an update's mark is not part of it.
                object["updated"] = nil
                var bytes: [UInt8] = []
                JSON.object(object).write(to: &bytes)
                text = String(decoding: bytes, as: UTF8.self)
            }
            return .message(ArchivedMessage(source: source, id: id, conversationId: conversation, role: role,
                                            createdAt: object["createdAt"]?.stringValue, record: text,
                                            searchText: MessageText(object)))
        }
        if object["title"] != nil {
            return .conversation(source: source, id: id, title: object["title"]?.stringValue,
                                 record: String(decoding: line, as: UTF8.self))
        }
        throw RecordError("neither a message (\"role\"), a deletion (\"deleted\":true) nor a conversation (\"title\")")
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
