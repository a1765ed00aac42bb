import ArgumentParser
import PSCore

/// Which credential a connection uses.
public enum CredentialChoice {
    /// The one the environment or the profile gives.
    case resolved
    /// None (a login that has yet to get one).
    case none
    /// One not stored yet, to be checked before it is.
    case given(Credentials)
}

/// The options every command that talks to a server shares.
public struct ConnectionOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then 'default'.",
        valueName: "name"), completion: LocalCompletions.profiles)
    public var profile: String?

    @Option(name: .long, help: ArgumentHelp(
        "The server's base URL. It overrides PAGESPACE_API_URL and the profile's server.", valueName: "url"))
    public var server: String?

    @Option(name: .long, help: ArgumentHelp(
        "The API the server speaks. One of \(APIKind.allValueStrings.joined(separator: ", ")); default: the profile's, else detected.",
        valueName: "kind"))
    public var api: APIKind?

    @Option(name: .long, help: ArgumentHelp("Verify TLS certificates with this CA bundle.", valueName: "file"))
    public var cacert: String?

    @Flag(name: .long, help: "Do not verify the server's TLS certificate. Only for a local test server.")
    public var insecure = false

    @Option(name: .long, help: ArgumentHelp(
        "How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).",
        valueName: "n"))
    public var retries: Int?

    @Option(name: .long, help: ArgumentHelp(
        "The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.",
        valueName: "seconds"))
    public var maxRetryWait: Double?

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for a connection (default 15).", valueName: "seconds"))
    public var connectTimeout: Int?

    @Option(name: .long, help: ArgumentHelp(
        "Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.",
        valueName: "seconds"))
    public var idleTimeout: Int?

    public init() {}

    /// The ENVIRONMENT section every network command's help shows.
    public static let environmentHelp = """
        ENVIRONMENT:
          PAGESPACE_TOKEN       the token, instead of the profile's
          PAGESPACE_API_URL     the server, unless --profile or --server is given
          PAGESPACE_API_KIND    the API kind, as --api (else detected)
          PAGESPACE_CSRF_TOKEN  legacy API: the CSRF token of PAGESPACE_TOKEN
          PS_PROFILE            the profile when --profile is not given
          PS_RETRIES            retries of failed reads (default 3)
          PS_MAX_RETRY_WAIT     longest Retry-After waited for (default 60 s)
          XDG_CONFIG_HOME       settings are in $XDG_CONFIG_HOME/ps-tools
          https_proxy, no_proxy and the other proxy variables are honoured.
        """

    public func validate() throws {
        if let retries, retries < 0 { throw ValidationError("--retries must be 0 or more") }
        if let maxRetryWait, maxRetryWait < 0 { throw ValidationError("--max-retry-wait must be 0 or more") }
        if let connectTimeout, connectTimeout <= 0 { throw ValidationError("--connect-timeout must be positive") }
        if let idleTimeout, idleTimeout <= 0 { throw ValidationError("--idle-timeout must be positive") }
    }

    /// Transfer settings from the options and the environment.
    public func httpOptions(environment: [String: String]) throws -> HTTPOptions {
        var options = HTTPOptions()
        options.caFile = cacert
        options.insecure = insecure
        if let connectTimeout { options.connectTimeout = connectTimeout }
        if let idleTimeout { options.idleTimeout = idleTimeout }
        if let retries {
            options.retry.maxRetries = retries
        } else if let value = environment["PS_RETRIES"], !value.isEmpty {
            guard let n = Int(value), n >= 0 else { throw ToolError(.usage, "PS_RETRIES must be a number, not \(value)") }
            options.retry.maxRetries = n
        }
        if let maxRetryWait {
            options.retry.maxRetryAfter = maxRetryWait
        } else if let value = environment["PS_MAX_RETRY_WAIT"], !value.isEmpty {
            guard let n = Double(value), n >= 0 else {
                throw ToolError(.usage, "PS_MAX_RETRY_WAIT must be a number of seconds, not \(value)")
            }
            options.retry.maxRetryAfter = n
        }
        return options
    }

    public func resolveSession(environment: [String: String]) throws -> Session {
        try Session.resolve(profile: profile, server: server, api: api, environment: environment)
    }

    /// The one way a command reaches a server: session, HTTP client (retries reported on
    /// stderr) and the adapter for the server's API, detecting the API when nobody said which.
    /// `environment` without PAGESPACE_TOKEN for what concerns the stored credential (login,
    /// logout); `credentials` for one not stored yet (login checks it before storing it);
    /// `maxResponseBytes` for the largest answer read whole (a history page).
    public func connect(
        requireCredentials: Bool = true, environment: [String: String] = Environment.current,
        credentials: CredentialChoice = .resolved, kind: APIKind? = nil, maxResponseBytes: Int? = nil
    ) throws -> APIConnection {
        var session = try resolveSession(environment: environment)
        switch credentials {
        case .resolved: break
        case .none: session.credentials = nil
        case .given(let given):
            session.credentials = given
            // A JWT fits more than one API: the profile's kind, when it takes JWTs, stays.
            let keepsKind = session.api?.takesJWTs == true && APIKind.guess(fromToken: given.token) == .pagespaceLegacy
            session.api = api ?? (keepsKind ? session.api : nil) ?? APIKind.guess(fromToken: given.token) ?? session.api
        }
        if let kind { session.api = kind }
        // A local model server needs no credential.
        if requireCredentials && session.api?.credentialOptional != true { _ = try session.requireCredentials() }
        var options = try httpOptions(environment: environment)
        if let maxResponseBytes { options.maxResponseBytes = maxResponseBytes }
        let http = HTTPClient(options: options)
        http.onRetry = { Diagnostics.warning($0) }
        let kind = try APIKindDetector.kind(for: &session, http: http)
        return APIConnection(session: session, adapter: APIAdapters.make(kind, client: APIClient(session: session, http: http)))
    }
}
