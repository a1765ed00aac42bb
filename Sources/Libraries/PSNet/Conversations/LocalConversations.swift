import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// Conversations kept by the client, for servers that keep none (an OpenAI-compatible server
/// is sent the whole conversation with every message). One file per conversation,
/// `$XDG_DATA_HOME/ps-tools/conversations/<profile>/<id>.ndjson` (else `~/.local/share/…`): one
/// UIMessage a line, oldest first, mode 0600, written whole (atomically) after each turn.
/// A turn is added under a lock (`flock` on the profile folder's `.lock`): the file is read,
/// the turn added after what is there and the file written while it is held, so two ps-send
/// on one conversation at once keep both turns, each whole, in the order they ended. The lock
/// is held for that moment only, not across a streamed reply: one slow or stuck reply never
/// holds up the others (each was sent the conversation as it was when it started).
/// `CurrentConversation` names the one a message goes to when none is named.
public struct LocalConversations: Sendable {
    public let directory: String

    public init(profile: String, environment: [String: String]) {
        directory = Self.directory(profile: profile, environment: environment)
        currentFile = CurrentConversation(profile: profile, environment: environment)
    }

    /// The profile's folder: `$XDG_DATA_HOME/ps-tools/conversations/<profile>` (else `~/.local/share/…`).
    public static func directory(profile: String, environment: [String: String]) -> String {
        folder(environment: environment) + "/" + safeName(profile)
    }

    /// The folder of every profile's conversations.
    public static func folder(environment: [String: String]) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return xdg + "/ps-tools/conversations"
        }
        return (environment["HOME"] ?? "") + "/.local/share/ps-tools/conversations"
    }

    /// The conversation a message goes to when none is named.
    public let currentFile: CurrentConversation

    /// A conversation id as a file name: made here (cuid2 shape), or given by the user, who may
    /// only name ids made here.
    public static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 64 && id.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || $0 == 0x5F || $0 == 0x2D }
    }

    private func path(_ id: String) -> String { directory + "/" + id + ".ndjson" }

    public func exists(_ id: String) -> Bool {
        Self.isValidID(id) && access(path(id), F_OK) == 0
    }

    /// The messages so far, oldest first (none for a conversation not saved yet).
    public func messages(_ id: String) throws -> [JSON] {
        guard Self.isValidID(id) else { throw ToolError(.usage, "\(TerminalSafeText.quoted(id)) is not a conversation id") }
        guard let bytes = try SecureFile.readPrivate(path(id)) else { return [] }
        var messages: [JSON] = []
        for (number, line) in bytes.split(separator: 0x0A).enumerated() where !line.isEmpty {
            do {
                messages.append(try JSON.parse(bytes: Array(line)))
            } catch {
                throw ToolError(.failure, "\(path(id)) line \(number + 1) is not JSON; the conversation file is damaged")
            }
        }
        return messages
    }

    /// Saves the conversation with `added` after its messages, and makes it the current one.
    public func append(_ added: [JSON], to id: String) throws {
        try whileLocked {
            var bytes: [UInt8] = []
            for message in try messages(id) + added {
                message.write(to: &bytes)
                bytes.append(0x0A)
            }
            try SecureFile.write(bytes, to: path(id))
            try setCurrent(id)
        }
    }

    /// Runs `body` holding the profile's lock. The kernel drops it when its holder ends, even
    /// by `kill -9`, so none is left stale; it is held only while a file is read and rewritten.
    private func whileLocked(_ body: () throws -> Void) throws {
        try SecureFile.makeDirectory(directory)
        let lockPath = directory + "/.lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw ToolError(.failure, "cannot open the lock \(lockPath): \(SecureFile.lastError())") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw ToolError(.failure, "cannot lock \(lockPath): \(SecureFile.lastError())") }
        }
        try body()
    }

    /// Removes a kept conversation (and makes none current if it was).
    public func remove(_ id: String) throws {
        guard exists(id) else { throw ToolError(.notFound, "there is no conversation \(TerminalSafeText.quoted(id)) kept for this profile") }
        guard unlink(path(id)) == 0 else {
            throw ToolError(.failure, "cannot remove \(path(id)): \(String(cString: strerror(errno)))")
        }
        currentFile.forget(id)
    }

    public func current() throws -> String? {
        guard let id = currentFile.read() else { return nil }
        return exists(id) ? id : nil
    }

    public func setCurrent(_ id: String) throws {
        try currentFile.write(id)
    }

    /// `{id, title, messageCount, updatedAt}` for each conversation, newest first; the title is
    /// the start of its first user message.
    public func list() throws -> [JSON] {
        guard let folder = opendir(directory) else { return [] }
        defer { closedir(folder) }
        var found: [(id: String, modified: Int)] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasSuffix(".ndjson") else { continue }
            let id = String(name.dropLast(".ndjson".count))
            var info = stat()
            guard Self.isValidID(id), stat(path(id), &info) == 0 else { continue }
            found.append((id, Int(info.st_mtim.tv_sec) * 1000 + Int(info.st_mtim.tv_nsec / 1_000_000)))
        }
        return try found.sorted { $0.modified > $1.modified }.map { item in
            let messages = try self.messages(item.id)
            var object = JSONObject()
            object["id"] = .string(item.id)
            object["title"] = .string(Self.title(messages))
            object["messageCount"] = .integer(Int64(messages.count))
            object["updatedAt"] = .string(Self.iso8601(milliseconds: item.modified))
            return .object(object)
        }
    }

    static func title(_ messages: [JSON]) -> String {
        let first = messages.first { $0["role"]?.stringValue == "user" }
        let text = first?["parts"]?.arrayValue?.compactMap { $0["text"]?.stringValue }.joined(separator: " ") ?? ""
        return NewConversation.title(fromMessage: text)
    }

    /// "2026-01-15T10:30:00.000Z" (UTC) for `milliseconds` since 1970.
    public static func iso8601(milliseconds: Int) -> String {
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let pad = { (value: Int32, width: Int) in String(repeating: "0", count: max(0, width - String(value).count)) + String(value) }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(milliseconds % 1000), 3))Z"
    }

    private static func safeName(_ profile: String) -> String {
        String(profile.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
    }
}

