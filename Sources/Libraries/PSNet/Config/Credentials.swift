import PSCore

/// What proves who we are to a server. Never printed, never logged, never in argv.
public struct Credentials: Sendable, Equatable {
    public var token: String
    /// Legacy API: sent as `X-CSRF-Token` on POST/PATCH/DELETE.
    public var csrfToken: String?
    /// Legacy API (mobile login): identifies this device to the server; it renews the token
    /// (`POST /api/auth/mobile/refresh`), which may rotate it.
    public var deviceToken: String?
    /// Legacy API: the device id the device token was given for (the renewal must name it).
    public var deviceID: String?
    /// The server a stored credential was given for: it is sent there and nowhere else (see
    /// `Session.resolve`). Nil for one not stored (`PAGESPACE_TOKEN`), and in files written
    /// before it was kept: then the profile's server in config.json stands for it.
    public var origin: Origin?

    public init(token: String, csrfToken: String? = nil, deviceToken: String? = nil, deviceID: String? = nil, origin: Origin? = nil) {
        self.token = token
        self.csrfToken = csrfToken
        self.deviceToken = deviceToken
        self.deviceID = deviceID
        self.origin = origin
    }
}

/// `credentials.json`, mode 0600, one entry per profile, each with the origin it belongs to.
/// A file others may read is refused.
public struct CredentialStore: Sendable {
    public var entries: [(profile: String, credentials: Credentials)] = []
    /// What of the file could not be read: `save` refuses to write over it.
    var unreadable = UnreadableParts()

    public init() {}

    public subscript(profile: String) -> Credentials? {
        get { entries.first { $0.profile == profile }?.credentials }
        set {
            unreadable.entries[profile] = nil
            if let index = entries.firstIndex(where: { $0.profile == profile }) {
                if let newValue { entries[index].credentials = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append((profile, newValue))
            }
        }
    }

    public static func load(_ path: String) throws -> CredentialStore {
        guard let bytes = try SecureFile.readPrivate(path) else { return CredentialStore() }
        let json: JSON
        do { json = try JSON.parse(bytes: bytes) } catch {
            // The parse error could quote part of a token: say only where.
            throw ToolError(.authenticationNeeded, "\(path) is not valid JSON; remove it and log in again")
        }
        var store = CredentialStore()
        store.unreadable = UnreadableParts(json, listedAs: "profiles")
        for (name, value) in json["profiles"]?.objectValue ?? JSONObject() {
            guard let token = value["token"]?.stringValue else {
                store.unreadable.entries[name] = "it has no token"
                continue
            }
            // An origin that cannot be read binds the credential to nothing: it is never sent.
            if let origin = value["origin"], origin.stringValue.flatMap(Origin.init(url:)) == nil {
                store.unreadable.entries[name] = "its origin is not a server URL"
                continue
            }
            store.entries.append((name, Credentials(
                token: token, csrfToken: value["csrfToken"]?.stringValue, deviceToken: value["deviceToken"]?.stringValue,
                deviceID: value["deviceId"]?.stringValue, origin: value["origin"]?.stringValue.flatMap(Origin.init(url:)))))
        }
        return store
    }

    public func save(_ path: String) throws {
        try unreadable.refuseOverwriting(path)
        var profiles = JSONObject()
        for (name, credentials) in entries {
            var entry = JSONObject()
            entry["token"] = .string(credentials.token)
            entry["csrfToken"] = credentials.csrfToken.map { .string($0) }
            entry["deviceToken"] = credentials.deviceToken.map { .string($0) }
            entry["deviceId"] = credentials.deviceID.map { .string($0) }
            entry["origin"] = credentials.origin.map { .string($0.description) }
            profiles[name] = .object(entry)
        }
        var bytes: [UInt8] = []
        let file: JSON = ["version": 1, "profiles": .object(profiles)]
        file.write(to: &bytes)
        bytes.append(0x0A)
        try SecureFile.write(bytes, to: path, mode: 0o600)
    }
}
