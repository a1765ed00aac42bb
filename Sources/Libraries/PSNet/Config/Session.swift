import PSCore

/// Where a setting came from, for `ps-auth status` and for error messages.
public enum SettingSource: Sendable, Equatable, CustomStringConvertible {
    case option(String)
    case environment(String)
    case file(String)
    case builtIn

    public var description: String {
        switch self {
        case .option(let name): return "the \(name) option"
        case .environment(let name): return "the environment (\(name))"
        case .file(let path): return path
        case .builtIn: return "the built-in default"
        }
    }
}

/// Everything a command needs to talk to a server, resolved once: the profile, the server,
/// the API kind (if known) and the credentials. Precedence, highest first: command-line
/// option, environment (`PAGESPACE_API_URL`, `PAGESPACE_TOKEN`), the profile's files. An
/// explicit `--profile` naming a stored profile is a command-line option too: its server,
/// kind and credential win over `PAGESPACE_API_URL`, `PAGESPACE_API_KIND` and a
/// `PAGESPACE_TOKEN` given for the environment's server.
public struct Session: Sendable {
    public static let defaultServer = "https://pagespace.ai"

    public var profileName: String
    public var paths: ConfigPaths
    public var config: ConfigFile
    public var server: String
    public var serverSource: SettingSource
    public var api: APIKind?
    public var apiSource: SettingSource?
    public var credentials: Credentials?
    public var credentialsSource: SettingSource?
    /// Where the profile's stored credential belongs when that is not the server in use: it
    /// was held back, and `requireCredentials` says how to log in to this server.
    public var credentialsHeldBackFor: Origin?

    public var profile: Profile? { config[profileName] }

    /// Whether ps-send and ps-batch keep each exchange in the archive when neither --archive nor
    /// --no-archive is given: the profile's `archive`, else config.json's top-level one, else no.
    public var archivesByDefault: Bool { profile?.archive ?? config.archive ?? false }

    /// Resolves the session. Reads the credentials file (and checks its mode) only when
    /// `PAGESPACE_TOKEN` does not already give the token.
    public static func resolve(
        profile: String?, server: String?, api: APIKind?, environment: [String: String]
    ) throws -> Session {
        let paths = ConfigPaths(environment: environment)
        let config = try ConfigFile.load(paths.config)
        let profileName = profile ?? nonEmpty(environment["PS_PROFILE"]) ?? config.defaultProfile
            ?? ConfigFile.defaultProfileName
        let stored = config[profileName]
        // `--profile NAME` for a stored profile means that profile's server, as gh's flags win
        // over its variables; the environment's server (and its token) then stand aside.
        let profileChosen = profile != nil && stored != nil && server == nil
        let environmentServer = nonEmpty(environment["PAGESPACE_API_URL"])
        let environmentStandsAside = profileChosen && environmentServer != nil
            && environmentServer.map(normalise) != stored.map { normalise($0.server) }

        var session = Session(
            profileName: profileName, paths: paths, config: config, server: defaultServer, serverSource: .builtIn,
            api: nil, apiSource: nil, credentials: nil, credentialsSource: nil)
        if let server {
            session.server = normalise(server)
            session.serverSource = .option("--server")
        } else if let url = environmentServer, !profileChosen {
            session.server = normalise(url)
            session.serverSource = .environment("PAGESPACE_API_URL")
        } else if let stored {
            session.server = normalise(stored.server)
            session.serverSource = .file(paths.config)
        }

        try checkURL(session.server, from: session.serverSource)

        if let token = nonEmpty(environment["PAGESPACE_TOKEN"]), !environmentStandsAside {
            session.credentials = Credentials(token: token, csrfToken: nonEmpty(environment["PAGESPACE_CSRF_TOKEN"]))
            session.credentialsSource = .environment("PAGESPACE_TOKEN")
        } else if var credentials = try CredentialStore.load(paths.credentials)[profileName] {
            // A stored credential goes only to the origin it was given for; files written
            // before the origin was kept bind it to the profile's server.
            let bound = credentials.origin ?? stored.flatMap { Origin(url: $0.server) }
            credentials.origin = bound
            if let bound, bound == Origin(url: session.server) {
                session.credentials = credentials
                session.credentialsSource = .file(paths.credentials)
            } else {
                session.credentialsHeldBackFor = bound
            }
        }

        // The stored kind belongs to the stored server: another server may speak another API.
        if let api {
            session.api = api
            session.apiSource = .option("--api")
        } else if !profileChosen, let kind = nonEmpty(environment["PAGESPACE_API_KIND"]).flatMap(APIKind.init(rawValue:)) {
            session.api = kind
            session.apiSource = .environment("PAGESPACE_API_KIND")
        } else if let stored, let kind = stored.api, normalise(stored.server) == session.server {
            session.api = kind
            session.apiSource = .file(paths.config)
        }
        return session
    }

    /// The credentials, or exit status 4 with a message saying how to get some.
    public func requireCredentials() throws -> Credentials {
        guard let credentials else { throw notLoggedIn }
        return credentials
    }

    /// Exit status 4 naming the server and the login that would give it a credential; when
    /// the profile holds one for another server, it says so (and that it was not sent), and
    /// names a profile stored for this server if there is one.
    public var notLoggedIn: ToolError {
        let login = "ps-auth login --server \(server) --profile \(profileName)"
        guard let elsewhere = credentialsHeldBackFor else {
            return ToolError(.authenticationNeeded, "not logged in to \(server) (profile \(profileName)); run `\(login)` or set PAGESPACE_TOKEN")
        }
        let here = Origin(url: server)
        let other = here == nil ? nil : config.profiles.first { $0.name != profileName && Origin(url: $0.profile.server) == here }
        let advice = other.map { "profile \($0.name) is for that server: add `--profile \($0.name)`" }
            ?? "run `ps-auth login --server \(server) --profile NAME` (a new NAME keeps profile \(profileName)'s login; \(profileName) itself replaces it)"
        return ToolError(
            .authenticationNeeded,
            "not logged in to \(server): profile \(profileName)'s credential is for \(elsewhere) and is sent nowhere else; \(advice), or set PAGESPACE_TOKEN")
    }

    /// Remembers a detected API kind in the profile, when the profile is the one in use for
    /// this server. Failing to write is not worth failing the command for.
    public mutating func rememberAPI(_ kind: APIKind) {
        api = kind
        guard var stored = config[profileName], Session.normalise(stored.server) == server, stored.api != kind else { return }
        stored.api = kind
        config[profileName] = stored
        try? config.save(paths.config)
    }

    /// Keeps a credential for this profile (credentials.json, 0600) and the profile's server,
    /// API, user and default model (config.json); the first profile stored becomes the default.
    /// Without a credential (an API that needs none), any old one of the profile is removed.
    /// Without a model, the profile's old one is kept if its server stays the same.
    public func store(_ credentials: Credentials?, api: APIKind, user: JSON?, model: String? = nil) throws {
        var config = self.config
        config[profileName] = Profile(server: server, api: api, user: user, model: model ?? profileModel,
                                      archive: profile?.archive)
        if config.defaultProfile == nil { config.defaultProfile = profileName }
        var store = try CredentialStore.load(paths.credentials)
        // Bound to the server it was given for (a login to another server replaces it).
        store[profileName] = credentials.map { given in
            var bound = given
            bound.origin = Origin(url: server)
            return bound
        }
        try store.save(paths.credentials)
        try config.save(paths.config)
    }

    /// Forgets this profile's stored credential and user.
    public func forgetCredentials() throws {
        var store = try CredentialStore.load(paths.credentials)
        store[profileName] = nil
        try store.save(paths.credentials)
        var config = self.config
        if var profile = config[profileName] {
            profile.user = nil
            config[profileName] = profile
            try config.save(paths.config)
        }
    }

    /// A mistyped URL is a usage error at once, not three retries and a network error. A URL
    /// with a user name or password in it is refused without being shown: it would be echoed
    /// and kept in config.json, and the credential belongs in credentials.json.
    static func checkURL(_ url: String, from source: SettingSource) throws {
        let lower = url.lowercased()
        let scheme = lower.hasPrefix("https://") ? 8 : lower.hasPrefix("http://") ? 7 : 0
        let authority = url.dropFirst(scheme).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if authority.contains("@") {
            throw ToolError(.usage,
                "the server URL from \(source) holds a user name or password (not shown here); give only "
                    + "scheme://host[:port][/path] and log in with ps-auth login")
        }
        guard scheme > 0 else {
            throw ToolError(.usage, "the server URL \(url) (from \(source)) must start with https:// or http://")
        }
        guard !authority.isEmpty else {
            throw ToolError(.usage, "the server URL \(url) (from \(source)) names no host")
        }
        guard let origin = Origin(url: url), isHostName(origin.host) else {
            throw ToolError(.usage,
                "the server URL \(url) (from \(source)) is not a valid URL: its host or port (\(authority)) cannot be read")
        }
    }

    /// A DNS name or IPv4 address (letters of any script, digits, `-`, `.`, `_`), or an IPv6
    /// address in brackets: what curl could connect to.
    static func isHostName(_ host: String) -> Bool {
        if host.hasPrefix("[") {
            return host.hasSuffix("]") && host.count > 2
                && host.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        return host.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "." || scalar == "_"
        }
    }

    /// A server URL without trailing slashes, so paths can be appended.
    public static func normalise(_ url: String) -> String {
        var result = url.trimmingSpaces
        while result.hasSuffix("/") { result.removeLast() }
        return result
    }

    static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
