import PSCore

/// The conversation a message goes to when none is named, for every API whose server has no
/// "active conversation" of its own (an OpenAI-compatible server, PageSpace's `/api/v1`,
/// Lucid, the Gemini mobile API: their apps remember the one open). One small file per
/// profile, `$XDG_STATE_HOME/ps-tools/current-conversation/<profile>` (else `~/.local/state/…`),
/// mode 0600: the id, and on a second line the user it was kept for when the API names users
/// (Lucid), so that another user logged in under the profile does not inherit it. Whoever
/// keeps the conversations decides whether a remembered id still exists.
public struct CurrentConversation: Sendable {
    public let path: String

    public init(profile: String, environment: [String: String]) {
        let name = String(profile.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
        path = Self.folder(environment: environment) + "/" + name
    }

    init(path: String) { self.path = path }

    /// The folder of every profile's file.
    public static func folder(environment: [String: String]) -> String {
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            return xdg + "/ps-tools/current-conversation"
        }
        return (environment["HOME"] ?? "") + "/.local/state/ps-tools/current-conversation"
    }

    /// The remembered id (for `owner`, when given); nil when none is.
    public func read(owner: String? = nil) -> String? {
        guard let bytes = try? SecureFile.read(path) else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
        guard let id = lines.first, !id.isEmpty else { return nil }
        if let owner, lines.dropFirst().first != owner { return nil }
        return id
    }

    public func write(_ id: String, owner: String? = nil) throws {
        try SecureFile.write(Array((id + "\n" + (owner.map { $0 + "\n" } ?? "")).utf8), to: path, mode: 0o600)
    }

    /// Forgets `id` if it is the remembered one (it was deleted).
    public func forget(_ id: String) {
        if read() == id { clear() }
    }

    public func clear() { _ = try? SecureFile.remove(path) }
}
