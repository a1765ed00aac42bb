import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// Who this machine is to Lucid. Lucid has no credential: a user is created, or found again,
/// from an `external_id` the client picks (the iOS app sends "ios-" + the device's UUID). Here
/// it is "ps-tools-" + the first 16 hex digits of a SHA-256 of /etc/machine-id (the host
/// name when there is none) + "-" + the profile: the same for every login from this machine
/// and profile, and never the machine id itself. Lucid takes only letters, digits, `_` and
/// `-`, at most 255 (src/validation/user.validation.ts:30-34): a profile name with another
/// character, or a long one, is named by "p" + 16 hex digits of its SHA-256 instead.
enum LucidIdentity {
    static func externalID(profile: String) -> String {
        let machine = machineID() ?? hostName()
        return "ps-tools-" + String(SHA256.hex("ps-tools lucid user\n" + machine).prefix(16)) + "-" + profileWord(profile)
    }

    static func profileWord(_ profile: String) -> String {
        let allowed = profile.utf8.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
        if allowed && !profile.isEmpty && profile.utf8.count <= 200 { return profile }
        return "p" + String(SHA256.hex("ps-tools lucid profile\n" + profile).prefix(16))
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

    /// 8-4-4-4-12 hex digits, as Lucid's ids are (zod's `.uuid()`).
    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.utf8.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
