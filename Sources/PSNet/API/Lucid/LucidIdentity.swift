import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// Who this machine is to Lucid. Lucid has no credential: a user is created, or found again,
/// from an `external_id` the client picks (the iOS app sends "ios-" + the device's UUID). Here
/// it is "ps-tools-" + the first 16 hex digits of a SHA-256 of /etc/machine-id (the host
/// name when there is none) + "-" + the profile: the same for every login from this machine
/// and profile, and never the machine id itself.
enum LucidIdentity {
    static func externalID(profile: String) -> String {
        let machine = machineID() ?? hostName()
        return "ps-tools-" + String(SHA256.hex("ps-tools lucid user\n" + machine).prefix(16)) + "-" + profile
    }

    private static func machineID() -> String? {
        for path in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
            guard let bytes = try? SecureFile.read(path) else { continue }
            let id = String(decoding: bytes, as: UTF8.self).trimmingSpaces
            if !id.isEmpty { return id }
        }
        return nil
    }

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "localhost" }
        return String(cString: buffer)
    }
}

/// The conversation a message goes to when none is named, kept on the client as the iOS app
/// keeps its `currentConversationId`: `$XDG_CONFIG_HOME/ps-tools/lucid/<profile>.json`,
/// `{"user_id":…,"conversation_id":…}`, next to the profile's config. The conversation a
/// message was last sent to (or that was last created) is the current one; it only counts for
/// the user it was kept for.
struct LucidCurrentConversation {
    let path: String

    init(paths: ConfigPaths, profile: String) {
        let safe = String(profile.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
        path = paths.directory + "/lucid/" + safe + ".json"
    }

    func read(userID: String) -> String? {
        guard let bytes = try? SecureFile.read(path), let json = try? JSON.parse(bytes: bytes),
              json["user_id"]?.stringValue == userID else { return nil }
        return json["conversation_id"]?.stringValue
    }

    func write(_ conversationID: String, userID: String) throws {
        var bytes: [UInt8] = []
        JSON.object(JSONObject([("user_id", .string(userID)), ("conversation_id", .string(conversationID))])).write(to: &bytes)
        bytes.append(0x0A)
        try SecureFile.write(bytes, to: path, mode: 0o600)
    }

    func forget() { _ = try? SecureFile.remove(path) }
}
