import PSCore
import PSNet
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `--state FILE`: where each job stands, so that a rerun skips the jobs that are done and never
/// sends again a message that a server keeping conversations accepted. One JSON record a line,
/// the last line of a job standing for it:
///
///     {"id":"j1","status":"sending","conversation":"…","messageId":"…","attempts":1}
///     {"id":"j1","status":"ok","conversation":"…","messageId":"…","attempts":1}
///
/// `sending` is written, and flushed to the disk, before the message goes, so a rerun knows which
/// conversation to read the reply from; `ok`, `failed` or `invalid` once the job's result is
/// written. Each line is appended with one write, so a `kill -9` leaves every line whole or
/// absent (a last line without its newline, from a full disk or a power cut, is dropped when
/// read). When a run starts, the file is replaced atomically (temp + rename, as ps-history's
/// state) by one line per job, so it does not grow from run to run. The file is locked for the
/// run (StateFileLock), as ps-history locks its state.
final class BatchState: @unchecked Sendable {
    struct Entry: Sendable, Equatable {
        var status: String
        var conversation: String?
        var messageID: String?
        var attempts: Int
        /// With --schema: how many times an invalid answer was sent back (the message named
        /// by `messageID` is then the last of those).
        var repairs = 0
    }

    let path: String
    private let entries: Mutex<[String: Entry]>
    private let order: [String]
    private let fd: Int32
    private let lock: StateFileLock

    private init(path: String, entries: [String: Entry], order: [String], fd: Int32, lock: StateFileLock) {
        self.path = path
        self.entries = Mutex(entries)
        self.order = order
        self.fd = fd
        self.lock = lock
    }

    deinit { close(fd) }

    /// Locks the file (another ps-batch using it: exit 1 at once), reads it (a line that is not a
    /// job's record: exit 3 naming it), rewrites it compactly and opens it for appending.
    static func open(_ path: String) throws -> BatchState {
        let lock = try StateFileLock(statePath: path, wait: 0, command: "ps-batch")
        var entries: [String: Entry] = [:]
        var order: [String] = []
        if let bytes = try SecureFile.read(path) {
            var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            lines.removeLast()  // after the last newline: empty, or a line whose write was cut off
            for (index, line) in lines.enumerated() where !line.isEmpty {
                guard let record = try? JSON.parse(bytes: Array(line)), let entry = Self.entry(record),
                      let id = record["id"]?.stringValue else {
                    throw ToolError(.malformedInput, "\(path) line \(index + 1) is not a ps-batch state record; "
                        + "fix it, or move \(path) away to run every job again")
                }
                if entries[id] == nil { order.append(id) }
                entries[id] = entry
            }
        }
        var compact: [UInt8] = []
        for id in order { compact += Self.line(id, entries[id]!) }
        try SecureFile.write(compact, to: path, mode: 0o644)
        let fd = Glibc.open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else { throw ToolError(.failure, "cannot write \(path): \(String(cString: strerror(errno)))") }
        return BatchState(path: path, entries: entries, order: order, fd: fd, lock: lock)
    }

    subscript(id: String) -> Entry? { entries.withLock { $0[id] } }

    /// Notes where job `id` stands; with `durable`, the line is on the disk before this returns.
    func record(_ id: String, _ entry: Entry, durable: Bool = false) throws {
        let bytes = Self.line(id, entry)
        let failure: String? = entries.withLock { all in
            all[id] = entry
            return FileDescriptorOutput.writeAll(fd: fd, bytes) == 0 ? nil : String(cString: strerror(errno))
        }
        if let failure { throw ToolError(.failure, "cannot write \(path): \(failure)") }
        if durable && fdatasync(fd) != 0 {
            throw ToolError(.failure, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    private static func line(_ id: String, _ entry: Entry) -> [UInt8] {
        var object = JSONObject()
        object["id"] = .string(id)
        object["status"] = .string(entry.status)
        object["conversation"] = entry.conversation.map(JSON.string)
        object["messageId"] = entry.messageID.map(JSON.string)
        object["attempts"] = .integer(Int64(entry.attempts))
        if entry.repairs > 0 { object["repairs"] = .integer(Int64(entry.repairs)) }
        var bytes: [UInt8] = []
        JSON.object(object).write(to: &bytes)
        bytes.append(0x0A)
        return bytes
    }

    private static let statuses: Set<String> = ["sending", "ok", "failed", "invalid"]

    private static func entry(_ record: JSON) -> Entry? {
        guard let status = record["status"]?.stringValue, statuses.contains(status),
              let attempts = record["attempts"]?.intValue, attempts >= 0,
              (record["repairs"]?.intValue ?? 0) >= 0 else { return nil }
        for key in ["conversation", "messageId"] where record[key] != nil && record[key]?.stringValue == nil { return nil }
        return Entry(status: status, conversation: record["conversation"]?.stringValue,
                     messageID: record["messageId"]?.stringValue, attempts: Int(attempts),
                     repairs: Int(record["repairs"]?.intValue ?? 0))
    }
}
