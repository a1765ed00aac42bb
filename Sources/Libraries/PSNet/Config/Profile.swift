import PSCore

/// A named server: its URL, the API it speaks (nil = not known yet, detected on first use),
/// who is logged in there, the model a message uses when `ps-send --model` is not given, and
/// whether ps-send and ps-batch keep each exchange in the archive (`archive`, which wins over
/// config.json's top-level one). Nothing secret: tokens live in `CredentialStore`.
public struct Profile: Sendable, Equatable {
    public var server: String
    public var api: APIKind?
    /// The user as the server described them at login (`id`, `name`, `email`).
    public var user: JSON?
    /// The default model (`ps-auth login --model`, `ps-auth set-model`).
    public var model: String?
    /// `"archive": true` or false; nil when not set (the top level's, else off).
    public var archive: Bool?

    public init(server: String, api: APIKind? = nil, user: JSON? = nil, model: String? = nil, archive: Bool? = nil) {
        self.server = server
        self.api = api
        self.user = user
        self.model = model
        self.archive = archive
    }

    init?(json: JSON) {
        guard let server = json["server"]?.stringValue else { return nil }
        self.server = server
        self.api = json["api"]?.stringValue.flatMap(APIKind.init(rawValue:))
        self.user = json["user"].flatMap { $0.isNull ? nil : $0 }
        self.model = json["model"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        self.archive = json["archive"]?.boolValue
    }

    var json: JSON {
        var object = JSONObject()
        object["server"] = .string(server)
        object["api"] = api.map { .string($0.rawValue) }
        object["user"] = user
        object["model"] = model.map(JSON.string)
        object["archive"] = archive.map(JSON.bool)
        return .object(object)
    }
}

extension Session {
    /// The profile's default model, when the profile's server is the one in use (a model
    /// belongs to its server, like the API kind).
    public var profileModel: String? {
        guard let stored = profile, Session.normalise(stored.server) == server else { return nil }
        return stored.model
    }

    /// Stores (or, with nil, removes) the profile's default model. The profile must exist:
    /// a model belongs to a server someone logged in to.
    public func storeModel(_ model: String?) throws {
        guard var stored = profile else {
            throw ToolError(.usage, "there is no profile \(profileName) yet: log in first (ps-auth login --model NAME …)")
        }
        stored.model = model
        var config = self.config
        config[profileName] = stored
        try config.save(paths.config)
    }
}

/// `config.json`: the profiles and which one is used when none is named.
public struct ConfigFile: Sendable {
    public static let defaultProfileName = "default"
    public var defaultProfile: String?
    /// `"archive": true` at the top level: every profile's exchanges are archived (ps-send,
    /// ps-batch) unless the profile says otherwise.
    public var archive: Bool?
    public var profiles: [(name: String, profile: Profile)] = []
    /// What of the file could not be read: `save` refuses to write over it.
    var unreadable = UnreadableParts()

    public init() {}

    public subscript(name: String) -> Profile? {
        get { profiles.first { $0.name == name }?.profile }
        set {
            unreadable.entries[name] = nil
            if let index = profiles.firstIndex(where: { $0.name == name }) {
                if let newValue { profiles[index].profile = newValue } else { profiles.remove(at: index) }
            } else if let newValue {
                profiles.append((name, newValue))
            }
        }
    }

    public static func load(_ path: String) throws -> ConfigFile {
        guard let bytes = try SecureFile.read(path) else { return ConfigFile() }
        let json: JSON
        do { json = try JSON.parse(bytes: bytes) } catch {
            throw ToolError(.failure, "\(path) is not valid JSON (\(error)); fix or remove it")
        }
        var file = ConfigFile()
        file.unreadable = UnreadableParts(json, listedAs: "profiles")
        file.defaultProfile = json["defaultProfile"]?.stringValue
        file.archive = try archiveValue(json["archive"], at: "archive", in: path)
        if json["defaultProfile"].map({ !$0.isNull && $0.stringValue == nil }) == true {
            file.unreadable.shape = "its defaultProfile is not a string"
        }
        for (name, value) in json["profiles"]?.objectValue ?? JSONObject() {
            if let profile = Profile(json: value) {
                _ = try archiveValue(value["archive"], at: "profiles.\(name).archive", in: path)
                file.profiles.append((name, profile))
            } else {
                file.unreadable.entries[name] = "it has no server"
            }
        }
        return file
    }

    /// An `archive` key is true, false or absent (null): anything else would leave unsaid
    /// whether exchanges are kept, so it is refused (exit 1) naming where it is.
    private static func archiveValue(_ value: JSON?, at key: String, in path: String) throws -> Bool? {
        guard let value, !value.isNull else { return nil }
        guard let flag = value.boolValue else {
            throw ToolError(.failure, "\(path): \(TerminalSafeText.sanitize(key)) must be true or false; fix it")
        }
        return flag
    }

    public func save(_ path: String) throws {
        try unreadable.refuseOverwriting(path)
        var profilesObject = JSONObject()
        for (name, profile) in profiles { profilesObject[name] = profile.json }
        var object = JSONObject()
        object["version"] = 1
        object["defaultProfile"] = defaultProfile.map { .string($0) }
        object["archive"] = archive.map(JSON.bool)
        object["profiles"] = .object(profilesObject)
        var bytes: [UInt8] = []
        JSON.object(object).write(to: &bytes)
        bytes.append(0x0A)
        try SecureFile.write(bytes, to: path, mode: 0o600)
    }
}

/// The parts of config.json or credentials.json that could not be read (the file is not an
/// object, an entry lacks its server or token): writing the file again would drop them, and
/// with them a profile of the user's, so `save` refuses until the file is fixed. An entry that
/// is replaced (a new login to that profile) no longer counts.
struct UnreadableParts: Sendable {
    var shape: String?
    var entries: [String: String] = [:]

    init() {}

    /// The shape of a whole file: an object whose `key` (when present) is an object.
    init(_ json: JSON, listedAs key: String) {
        if json.objectValue == nil {
            shape = "it is not a JSON object"
        } else if let list = json[key], !list.isNull, list.objectValue == nil {
            shape = "its \(key) are not a JSON object"
        }
    }

    func refuseOverwriting(_ path: String) throws {
        var problems = shape.map { [$0] } ?? []
        problems += entries.keys.sorted().map { "profile \($0): \(entries[$0]!)" }
        guard !problems.isEmpty else { return }
        throw ToolError(.failure,
            "not writing \(path): part of it could not be read (\(problems.joined(separator: "; "))) and would be lost; "
                + "fix or move the file, then run the command again")
    }
}
