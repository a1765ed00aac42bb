import ArgumentParser
import PSCore
import PSNet

struct Login: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Log in and store the credential under a profile.",
        usage: "ps-auth login [<options>]",
        discussion: """
            With --with-token, reads a token (ps_sess_... or mcp_... on the current API) from \
            stdin, or asks for it on the terminal without echo. With --email, logs in with a \
            password (pagespace-legacy API), read from the terminal without echo or, with \
            --password-stdin, from the first line of stdin. The server is asked whether the \
            credential works before anything is stored; the token, and the CSRF and device \
            tokens the server gives, go to credentials.json (mode 0600).

            EXAMPLES:
              ps-auth login --with-token --server https://pagespace.ai < token.txt
              ps-auth login --server http://127.0.0.1:8080 --email demo@example.com
              printf %s "$PASSWORD" | ps-auth login --email demo@example.com --password-stdin --profile old

            \(ExitStatus.helpText([.success, .failure, .usage, .authenticationNeeded, .serverError, .networkError,
                                   .interrupted]))
            """)

    @OptionGroup var connection: ConnectionOptions

    @Flag(name: .long, help: "Read a token from stdin (or from the terminal, without echo).")
    var withToken = false

    @Option(name: .long, help: ArgumentHelp("Log in with this email and a password (pagespace-legacy).", valueName: "address"))
    var email: String?

    @Flag(name: .long, help: "Read the password from the first line of stdin instead of the terminal.")
    var passwordStdin = false

    func validate() throws {
        if withToken == (email != nil) { throw ValidationError("give either --with-token or --email") }
        if passwordStdin && email == nil { throw ValidationError("--password-stdin goes with --email") }
        if email != nil && connection.api == .pagespace {
            throw ValidationError("the pagespace API has no password login; use --with-token")
        }
    }

    func run() throws {
        Interrupt.install()
        var environment = Environment.current
        // Logging in is about the stored credential: an exported token must not stand in for it.
        environment["PAGESPACE_TOKEN"] = nil
        var session = try connection.resolveSession(environment: environment)
        let http = HTTPClient(options: try connection.httpOptions(environment: environment))
        http.onRetry = { Diagnostics.warning($0) }

        let result: LoginResult
        let kind: APIKind
        if let email {
            let password = passwordStdin
                ? try SecretInput.fromStandardInput(keepSpaces: true)
                : try SecretInput.fromTerminal(prompt: "Password for \(email) at \(session.server): ", keepSpaces: true)
            guard !password.isEmpty else { throw ToolError(.usage, "empty password") }
            kind = connection.api ?? .pagespaceLegacy
            session.credentials = nil
            let adapter = APIAdapters.make(kind, client: APIClient(session: session, http: http))
            result = try adapter.login(email: email, password: password)
        } else {
            let token = Terminal.isTerminal(0)
                ? try SecretInput.fromTerminal(prompt: "Token for \(session.server): ")
                : try SecretInput.fromStandardInput()
            guard !token.isEmpty else { throw ToolError(.usage, "no token on stdin") }
            session.credentials = Credentials(token: token, csrfToken: nil)
            session.api = connection.api ?? APIKind.guess(fromToken: token) ?? session.api
            kind = try APIKindDetector.kind(for: &session, http: http)
            let adapter = APIAdapters.make(kind, client: APIClient(session: session, http: http))
            result = LoginResult(credentials: session.credentials!, user: try verifiedUser(adapter, token: token))
            if kind == .pagespaceLegacy {
                Diagnostics.warning("a legacy token without its CSRF token can read but not send; log in with --email to send")
            }
        }
        try store(result, kind: kind, session: session)
        var who = UserText.describe(result.user)
        if !who.isEmpty { who = " as " + who }
        Diagnostics.writeLine("Logged in to \(session.server)\(who) (profile \(session.profileName), \(kind.rawValue) API).")
    }

    /// The user, proving the token works. An MCP key may not reach the "who am I" route: it is
    /// kept all the same, since Page AI and history accept it.
    private func verifiedUser(_ adapter: APIAdapter, token: String) throws -> JSON? {
        do {
            return try adapter.currentUser()
        } catch let error as ToolError where error.status == .authenticationNeeded && token.hasPrefix("mcp_")
            && error.message.contains("MCP keys") {
            Diagnostics.warning("MCP key stored; it reaches Page AI and history, not the Global assistant")
            return nil
        }
    }

    private func store(_ result: LoginResult, kind: APIKind, session: Session) throws {
        var config = session.config
        config[session.profileName] = Profile(server: session.server, api: kind, user: UserText.summary(result.user))
        if config.defaultProfile == nil { config.defaultProfile = session.profileName }
        var store = try CredentialStore.load(session.paths.credentials)
        store[session.profileName] = result.credentials
        try store.save(session.paths.credentials)
        try config.save(session.paths.config)
    }
}

/// How a user is shown and kept: id, name and email, nothing else.
enum UserText {
    static func summary(_ user: JSON?) -> JSON? {
        guard let user, user.objectValue != nil else { return nil }
        var object = JSONObject()
        object["id"] = user["id"]
        object["name"] = user["name"]
        object["email"] = user["email"]
        return object.isEmpty ? nil : .object(object)
    }

    static func describe(_ user: JSON?) -> String {
        let name = user?["name"]?.stringValue, email = user?["email"]?.stringValue
        switch (name, email) {
        case let (name?, email?): return "\(name) <\(email)>"
        case let (name?, nil): return name
        case let (nil, email?): return email
        default: return user?["id"]?.stringValue ?? ""
        }
    }
}
