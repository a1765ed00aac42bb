import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// The conversation a message goes to when none is named, for APIs whose server keeps the
/// conversations but has no "active conversation" of its own (the Gemini mobile API: the app
/// remembers the one open). One file per profile, `$XDG_STATE_HOME/ps-tools/last-conversation/
/// <profile>` (else `~/.local/state/…`), holding the id of the last conversation a message was
/// sent to; mode 0600.
public struct LastConversation: Sendable {
    public let path: String

    public init(profile: String, environment: [String: String]) {
        let base: String
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? "") + "/.local/state"
        }
        let name = String(profile.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
        path = base + "/ps-tools/last-conversation/" + name
    }

    public func read() -> String? {
        guard let bytes = try? SecureFile.read(path) else { return nil }
        let id = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return id.isEmpty ? nil : id
    }

    public func remember(_ id: String) throws {
        try SecureFile.write(Array((id + "\n").utf8), to: path)
    }

    /// Forgets `id` if it is the one remembered (it was deleted).
    public func forget(_ id: String) {
        if read() == id { try? SecureFile.remove(path) }
    }
}
