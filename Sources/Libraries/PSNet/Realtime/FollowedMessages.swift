import PSCore

/// What a follower has written of one conversation, so that each message is written once,
/// whichever way it arrives (an event, a catch-up through the history, both), and a change
/// to one already written is written again marked `updated`.
///
/// A message still being generated (status `streaming`, the empty placeholder the server
/// announces when a reply starts) is held back: the history leaves such rows out too, and
/// the finished message follows as an update.
public struct FollowedMessages {
    private struct Entry {
        var role: String
        var fingerprint: Int
        /// The stored createdAt, once the history has returned the message (an event's
        /// createdAt is the time of the event, not of the row).
        var createdAt: String?
    }

    private var written: [String: Entry] = [:]
    private var streaming: Set<String> = []

    public init() {}

    public func isWritten(_ id: String) -> Bool { written[id] != nil }

    /// A message as an event carries it: the record to write, or nil.
    public mutating func live(_ message: JSON) -> JSON? {
        guard let object = message.objectValue, let id = object["id"]?.stringValue else { return nil }
        if object["status"]?.stringValue == "streaming" {
            if written[id] == nil { streaming.insert(id) }
            return nil
        }
        return accept(MessageNormalizer.normalize(object), id: id, createdAt: nil)
    }

    /// A message as the history returns it (a catch-up): the record to write, or nil.
    public mutating func stored(_ record: JSON) -> JSON? {
        guard let id = record["id"]?.stringValue else { return record }
        return accept(record, id: id, createdAt: record["createdAt"]?.stringValue ?? "")
    }

    /// A message of the newest history page: an `updated` record when it is one already
    /// written whose content changed; nil otherwise (never a message not written before).
    public mutating func reconcile(_ record: JSON) -> JSON? {
        guard let id = record["id"]?.stringValue, written[id] != nil else { return nil }
        return stored(record)
    }

    /// A deleted message: true when a deletion record is due (not for a reply still held).
    public mutating func delete(_ id: String) -> Bool {
        if streaming.remove(id) != nil { return false }
        written[id] = nil
        return true
    }

    /// The messages written that the newest history page should hold but does not: deleted
    /// while no event could say so. (Those older than the page's oldest are not judged.)
    public func missing(fromNewestPage page: [JSON]) -> [String] {
        let present = Set(page.compactMap { $0["id"]?.stringValue })
        let oldest = page.first?["createdAt"]?.stringValue
        return written.filter { id, entry in
            guard !present.contains(id) else { return false }
            guard let oldest, let createdAt = entry.createdAt else { return true }
            return createdAt >= oldest
        }
        .sorted { ($0.value.createdAt ?? "~", $0.key) < ($1.value.createdAt ?? "~", $1.key) }
        .map(\.key)
    }

    private mutating func accept(_ record: JSON, id: String, createdAt: String?) -> JSON? {
        streaming.remove(id)
        let fingerprint = Self.fingerprint(record)
        guard var entry = written[id] else {
            written[id] = Entry(role: record["role"]?.stringValue ?? "", fingerprint: fingerprint, createdAt: createdAt)
            return record
        }
        if let createdAt { entry.createdAt = createdAt }
        let changed = entry.fingerprint != fingerprint
        entry.fingerprint = fingerprint
        written[id] = entry
        guard changed, var object = record.objectValue else { return nil }
        // The role is the one first written: the current server announces every Global
        // edit as an assistant message, whoever wrote it.
        object["role"] = .string(entry.role)
        object["updated"] = true
        return .object(object)
    }

    /// What an edit changes, the same whether read from an event or from the history: the
    /// text of the text parts and the tool calls (not the timestamps, status or extra keys).
    static func fingerprint(_ message: JSON) -> Int {
        var hasher = Hasher()
        for part in message["parts"]?.arrayValue ?? [] {
            let type = part["type"]?.stringValue ?? ""
            if type == "text", let text = part["text"]?.stringValue, !text.isEmpty {
                hasher.combine(text)
            } else if type.hasPrefix("tool-") {
                hasher.combine(type)
                hasher.combine(part["toolCallId"]?.stringValue ?? "")
            }
        }
        return hasher.finalize()
    }
}
