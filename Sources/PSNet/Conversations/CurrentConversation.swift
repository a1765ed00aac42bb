import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// The conversation a message goes to when none is named, for APIs whose servers have no
/// notion of a current conversation (OpenAI-compatible ones): the file `current` in the
/// profile's folder `$XDG_DATA_HOME/ps-tools/conversations/<profile>/` (else
/// `~/.local/share/…`), one id and a newline. Whoever keeps the conversations (the client, or
/// the server) decides whether a remembered id still exists.
public struct CurrentConversation: Sendable {
    public let path: String

    public init(directory: String) {
        path = directory + "/current"
    }

    /// The remembered id, nil when none is.
    public func read() throws -> String? {
        guard let bytes = try SecureFile.read(path) else { return nil }
        let id = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == " " }).first.map(String.init)
        return id?.isEmpty == false ? id : nil
    }

    public func write(_ id: String) throws {
        try SecureFile.write(Array((id + "\n").utf8), to: path)
    }

    /// Forgets `id` if it is the remembered one (it was deleted).
    public func forget(_ id: String) throws {
        if try read() == id { try SecureFile.remove(path) }
    }
}
