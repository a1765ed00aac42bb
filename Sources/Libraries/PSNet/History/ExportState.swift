import PSCore
#if canImport(Glibc)
import Glibc
#endif

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
/// `lastMessageId`) is still read. Written atomically (temp + rename), under a lock.
public struct ExportState {
    /// The file; nil for a state kept in memory only (a follower without --state).
    public let path: String?
    private var conversations: JSONObject
    /// Held while this process uses the file (see StateFileLock).
    private let lock: StateFileLock?
    /// Saving is at most once a second while pages are written (`record`), and whenever the
    /// writer asks (`save`: at the end, on an error, after a follower's batch), not an fsync and
    /// a rename per page.
    /// The state never claims a message not yet written; a `kill -9` can only leave it behind
    /// by the last second's pages.
    private var unsaved = false
    /// Seconds on a monotonic clock (a test gives its own, to count saves without waiting).
    var clock: () -> Double = { MonotonicClock.now } {
        didSet { lastSave = clock() }
    }
    private var lastSave = MonotonicClock.now
    static let saveInterval = 1.0
    /// Called before the file is written: the output's records are flushed to the disk first.
    public var beforeSave: (() throws -> Void)?
    /// How many times the file was written (tests bound it).
    public private(set) var saves = 0

    public static func inMemory() -> ExportState {
        ExportState(path: nil, conversations: JSONObject(), lock: nil)
    }

    /// Locks the file (waiting up to `lockWait` seconds for another run that holds it), clears
    /// temporary files a killed run left behind, then reads and checks it. A file that is not a
    /// state file, or a field that is wrong, is refused (exit 3) naming the field: a run never
    /// says "nothing new" from a state it could not read.
    public static func load(
        _ path: String, lockWait: Double = 120, onWait: (String) -> Void = { Diagnostics.warning($0) }
    ) throws -> ExportState {
        let lock = try StateFileLock(statePath: path, wait: lockWait) { holder in
            let who = holder.map { "another ps-history (pid \($0))" } ?? "another ps-history"
            onWait("\(who) is using \(path); waiting for it (up to \(Int(lockWait)) s, --lock-wait)")
        }
        removeLeftovers(of: path)
        guard let bytes = try SecureFile.read(path) else {
            return ExportState(path: path, conversations: JSONObject(), lock: lock)
        }
        return ExportState(path: path, conversations: try StateFileCheck.conversations(in: bytes, path: path), lock: lock)
    }

    public func watermark(for key: String) -> HistoryWatermark? {
        guard let entry = conversations[key], let id = entry["lastMessageId"]?.stringValue else { return nil }
        return HistoryWatermark(
            lastMessageID: id, lastCreatedAt: entry["lastCreatedAt"]?.stringValue,
            idsAtLastCreatedAt: entry["idsAtLastCreatedAt"]?.arrayValue?.compactMap(\.stringValue) ?? [id],
            anchorMessageID: entry["anchorMessageId"]?.stringValue,
            nextOffset: entry["nextOffset"]?.intValue.map { Int($0) })
    }

    /// Notes what was written (call it only once the records are out); the file follows at
    /// most a second later, or at `save`.
    public mutating func record(_ mark: HistoryWatermark, for key: String) throws {
        var entry = JSONObject()
        entry["lastMessageId"] = .string(mark.lastMessageID)
        if let createdAt = mark.lastCreatedAt { entry["lastCreatedAt"] = .string(createdAt) }
        entry["idsAtLastCreatedAt"] = .array(mark.idsAtLastCreatedAt.map(JSON.string))
        if let anchor = mark.anchorMessageID { entry["anchorMessageId"] = .string(anchor) }
        if let offset = mark.nextOffset { entry["nextOffset"] = .integer(Int64(offset)) }
        conversations[key] = .object(entry)
        unsaved = true
        if clock() - lastSave >= Self.saveInterval { try save() }
    }

    /// Writes what `record` noted and the file does not hold yet.
    public mutating func save() throws {
        guard unsaved, let path else { return }
        try beforeSave?()
        var bytes: [UInt8] = []
        let file: JSON = ["version": 2, "conversations": .object(conversations)]
        file.write(to: &bytes)
        bytes.append(0x0A)
        try SecureFile.write(bytes, to: path, mode: 0o644)
        unsaved = false
        saves += 1
        lastSave = clock()
    }

    /// `FILE.tmp-PID` files are written and renamed by SecureFile; one still there belongs to
    /// a run that was killed (this run holds the lock, so no other is writing).
    private static func removeLeftovers(of path: String) {
        let folder = SecureFile.parent(of: path)
        let prefix = String(path.split(separator: "/").last ?? "") + ".tmp-"
        guard let dir = opendir(folder) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(prefix), Int32(name.dropFirst(prefix.count)) != nil {
                unlink(folder + "/" + name)
            }
        }
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
