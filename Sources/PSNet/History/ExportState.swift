import PSCore

/// Where an incremental export of each conversation stopped, kept in a small JSON file:
///
///     {"version":2,"conversations":{"global:ID":{"lastMessageId":"…","lastCreatedAt":"…",
///       "idsAtLastCreatedAt":["…"],"anchorMessageId":"…"}}}
///
/// `lastCreatedAt` and the ids exported at that instant let the next run tell new messages
/// from old ones even when the last one was deleted meanwhile, or when several share its
/// timestamp; `anchorMessageId` (the newest exported message strictly older) is the cursor
/// the next run starts from, so that messages written in the same tick as the last one are
/// not skipped by a server that compares timestamps alone. `nextOffset`, for an API paged by
/// offset (Lucid), is where the next run starts looking. A version 1 file (only
/// `lastMessageId`) is still read. Written atomically (temp + rename).
public struct ExportState {
    /// The file; nil for a state kept in memory only (a follower without --state).
    public let path: String?
    private var conversations: JSONObject

    public static func inMemory() -> ExportState { ExportState(path: nil, conversations: JSONObject()) }

    public static func load(_ path: String) throws -> ExportState {
        guard let bytes = try SecureFile.read(path) else { return ExportState(path: path, conversations: JSONObject()) }
        guard let json = try? JSON.parse(bytes: bytes), let conversations = json["conversations"]?.objectValue else {
            throw ToolError(.malformedInput, "\(path) is not a ps-history state file; move it away to start a full export")
        }
        return ExportState(path: path, conversations: conversations)
    }

    public func watermark(for key: String) -> HistoryWatermark? {
        guard let entry = conversations[key], let id = entry["lastMessageId"]?.stringValue else { return nil }
        return HistoryWatermark(
            lastMessageID: id, lastCreatedAt: entry["lastCreatedAt"]?.stringValue,
            idsAtLastCreatedAt: entry["idsAtLastCreatedAt"]?.arrayValue?.compactMap(\.stringValue) ?? [id],
            anchorMessageID: entry["anchorMessageId"]?.stringValue,
            nextOffset: entry["nextOffset"]?.intValue.map { Int($0) })
    }

    public mutating func record(_ mark: HistoryWatermark, for key: String) throws {
        var entry = JSONObject()
        entry["lastMessageId"] = .string(mark.lastMessageID)
        if let createdAt = mark.lastCreatedAt { entry["lastCreatedAt"] = .string(createdAt) }
        entry["idsAtLastCreatedAt"] = .array(mark.idsAtLastCreatedAt.map(JSON.string))
        if let anchor = mark.anchorMessageID { entry["anchorMessageId"] = .string(anchor) }
        if let offset = mark.nextOffset { entry["nextOffset"] = .integer(Int64(offset)) }
        conversations[key] = .object(entry)
        guard let path else { return }
        var bytes: [UInt8] = []
        let file: JSON = ["version": 2, "conversations": .object(conversations)]
        file.write(to: &bytes)
        bytes.append(0x0A)
        try SecureFile.write(bytes, to: path, mode: 0o644)
    }
}

/// The newest exported message of a conversation, and what is needed to resume after it.
public struct HistoryWatermark: Sendable, Equatable {
    public var lastMessageID: String
    /// nil when the server gives messages no createdAt (then ids alone are compared).
    public var lastCreatedAt: String?
    /// Every exported message id whose createdAt equals `lastCreatedAt`.
    public var idsAtLastCreatedAt: [String]
    /// The newest exported message strictly older than `lastCreatedAt`.
    public var anchorMessageID: String?
    /// For an API paged by offset: how many messages the conversation held up to the last
    /// exported one, when it was exported (where the next run starts looking; only a hint,
    /// since messages may have been deleted since).
    public var nextOffset: Int? = nil

    /// True for a message the export has not written yet.
    public func isNew(id: String, createdAt: String?) -> Bool {
        guard let lastCreatedAt, let createdAt else { return id != lastMessageID }
        if createdAt != lastCreatedAt { return createdAt > lastCreatedAt }
        return !idsAtLastCreatedAt.contains(id)
    }
}
