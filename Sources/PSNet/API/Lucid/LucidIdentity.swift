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
