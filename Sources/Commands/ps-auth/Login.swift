import ArgumentParser
import PSCore
import PSNet
#if canImport(Glibc)
import Glibc
#endif

struct Login: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Log in and store the credential under a profile.",
        usage: "ps-auth login [<options>]",
        discussion: """
            --device logs in like `gh auth login`: a code and a URL are printed on stderr; open \
            the URL in any browser (on any machine: it works over SSH), sign in, type the code \
            and approve. Where a browser can be opened here (xdg-open on PATH, DISPLAY or \
            WAYLAND_DISPLAY set, and neither SSH_CONNECTION nor SSH_TTY), the page is opened \
            with xdg-open, after Enter when stdin is a terminal. --drive (repeatable) is \
            required: the grant is an MCP key for those drives, named after this host (or \
            --name); that is the credential for scripts. Without a drive the server could grant \
            only an OAuth access token, which reaches no AI route, so the login is refused before \
            any code is asked for.

            With none of --device, --with-token and --email, logs in to an API that needs no \
            credential: an OpenAI-compatible server (--api openai; the server is only asked to \
            answer), or Lucid (--api lucid), where the user is created, or found again, from an \
            id that stays the same for this machine and profile, with --user-name, --user-email \
            and --timezone when given. Other APIs then say which credential they need.

            --model stores the model ps-send uses when it is given no --model (a login without \
            it keeps the profile's model); ps-auth set-model changes it without logging in again.

            With --with-token, reads a token from stdin, or asks for it on the terminal without \
            echo (for --api gemini, a Firebase ID token). With --email, logs in with a password (pagespace-legacy API), read from the \
            terminal without echo or, with --password-stdin, from the first line of stdin. The \
            server is asked whether the credential works before anything is stored; the token, \
            and the CSRF and device tokens the server gives, go to credentials.json (mode 0600), \
            bound to the server's origin (scheme, host, port): no command sends them to another \
            server. A profile holds one login: logging in to another server under the same \
            profile replaces it, and a warning on stderr names the server and API replaced \
            (use --profile NAME to keep both).

            WHICH CREDENTIAL REACHES WHAT (current API):
              mcp_...     an MCP key (settings > MCP keys, or --device --drive):
                          Page AI agents and their history, its drives;
                          never the Global assistant. Never expires.
              ps_sess_... a browser session (the "session" cookie of
                          pagespace.ai: browser developer tools > Application
                          > Cookies; paste it with --with-token): everything,
                          the Global assistant included; 7 days at most.
              ps_at_...   an OAuth access token: no AI route; refused.

            EXAMPLES:
              ps-auth login --device --drive drive_123
              ps-auth login --with-token --server https://pagespace.ai < token.txt
              ps-auth login --server http://127.0.0.1:8080 --email demo@example.com
              printf %s "$PASSWORD" | ps-auth login --email demo@example.com \\
                  --password-stdin --profile old
              ps-auth login --api openai --server http://127.0.0.1:11434/v1 \\
                  --profile ollama --model llama3.2
              ps-auth login --api openai --server https://pagespace.ai/api/v1 \\
                  --with-token --model ps-agent://page_123 < mcp-key.txt
              ps-auth login --api gemini --server https://vm.example:8443/api/v1 \\
                  --with-token < id-token.txt
              ps-auth login --api lucid --server https://lucid.example --user-name Ada \\
                  --timezone Europe/Paris

            \(ExitStatus.helpText([.success, .failure, .usage, .authenticationNeeded, .serverError, .networkError,
                                   .interrupted]))
            """)

    @OptionGroup var connection: ConnectionOptions

    @Flag(name: .long, help: "Read a token from stdin (or from the terminal, without echo).")
    var withToken = false

    @Flag(name: .long, help: "Log in in a browser with a code (OAuth device flow, current API).")
    var device = false

    @Option(name: .long, help: ArgumentHelp(
        "With --device (required): grant an MCP key for this drive (repeatable).", valueName: "drive-id"), transform: IDArgument.nonEmpty)
    var drive: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "With --device --drive: the key's name (default: ps-tools on this host).", valueName: "name"))
    var name: String?

    @Option(name: .long, help: ArgumentHelp("Log in with this email and a password (pagespace-legacy).", valueName: "address"))
    var email: String?

    @Flag(name: .long, help: "Read the password from the first line of stdin instead of the terminal.")
    var passwordStdin = false

    @Option(name: .long, help: ArgumentHelp("Without a credential (Lucid): the user's name.", valueName: "name"))
    var userName: String?

    @Option(name: .long, help: ArgumentHelp("Without a credential (Lucid): the user's email address.", valueName: "address"))
    var userEmail: String?

    @Option(name: .long, help: ArgumentHelp(
        "Without a credential (Lucid): the user's time zone, e.g. Europe/Paris (default: TZ, if set).", valueName: "zone"))
    var timezone: String?

    @Option(name: .long, help: ArgumentHelp(
        "The model ps-send uses when given no --model (kept in the profile; change it with ps-auth set-model).",
        valueName: "name"))
    var model: String?

    private var credentialless: Bool { !withToken && email == nil && !device }

    func validate() throws {
        if [withToken, email != nil, device].filter({ $0 }).count > 1 {
            throw ValidationError("give one of --device, --with-token or --email")
        }
        if !credentialless && (userName != nil || userEmail != nil || timezone != nil) {
            throw ValidationError("--user-name, --user-email and --timezone are for a login without a credential")
        }
        if !device && (!drive.isEmpty || name != nil) { throw ValidationError("--drive and --name go with --device") }
        if let model, model.allSatisfy(\.isWhitespace) { throw ValidationError("--model must not be blank") }
        if name != nil && drive.isEmpty { throw ValidationError("--name names a drive key: give --drive too") }
        // Without a drive scope the grant is an OAuth access token (account) or one the server
        // refuses everywhere (no scope: parseScopeList('') is empty_scope), and neither reaches
        // an AI route: refuse before the user approves anything.
        if device && drive.isEmpty {
            throw ValidationError(
                "--device needs --drive ID (repeatable): the key is granted for those drives; without one the server "
                    + "grants no credential that reaches an AI route (a drive's ID follows /dashboard/ in its address)")
        }
        // The scope grammar's resource id (RESOURCE_ID_RE, /^[a-z0-9]{1,32}$/): anything else is
        // refused by the server as a bad scope, which would not say which word was wrong.
        if let bad = drive.first(where: { id in !(1...32).contains(id.utf8.count) || !id.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) } }) {
            throw ValidationError("--drive \(bad.debugDescription): not a drive ID (1 to 32 lowercase letters and digits, as after /dashboard/ in its address)")
        }
        if device && connection.api == .pagespaceLegacy {
            throw ValidationError("the pagespace-legacy API has no device login; use --email")
        }
        if passwordStdin && email == nil { throw ValidationError("--password-stdin goes with --email") }
        if email != nil && connection.api == .pagespace {
            throw ValidationError("the pagespace API has no password login; use --with-token")
        }
    }

    func run() throws {
        Interrupt.install()
        CommandHints.refusedCredential = CommandHints.refusedAtLogin
        var environment = Environment.current
        // Logging in is about the stored credential: an exported token must not stand in for it.
        environment["PAGESPACE_TOKEN"] = nil
        let result: LoginResult
        let connection: APIConnection
        if credentialless {
            connection = try self.connection.connect(requireCredentials: false, environment: environment, credentials: .none)
            let zone = timezone ?? environment["TZ"].flatMap { $0.isEmpty || $0.hasPrefix(":") ? nil : $0 }
            result = try connection.adapter.openLogin(AccountDetails(name: userName, email: userEmail, timezone: zone))
        } else if device {
            connection = try self.connection.connect(
                requireCredentials: false, environment: environment, credentials: .none, kind: .pagespace)
            let credentials = try deviceCredentials(connection.adapter)
            let verified = try self.connection.connect(environment: environment, credentials: .given(credentials), kind: .pagespace)
            result = LoginResult(credentials: credentials, user: try verifiedUser(verified.adapter))
        } else if let email {
            connection = try self.connection.connect(
                requireCredentials: false, environment: environment, credentials: .none,
                kind: self.connection.api ?? .pagespaceLegacy)
            let password = passwordStdin
                ? try SecretInput.fromStandardInput(keepSpaces: true)
                : try SecretInput.fromTerminal(
                    prompt: "Password for \(email) at \(connection.session.server): ", keepSpaces: true)
            guard !password.isEmpty else { throw ToolError(.usage, "empty password") }
            result = try connection.adapter.login(email: email, password: password)
        } else {
            let server = try self.connection.resolveSession(environment: environment).server
            let token = Terminal.isTerminal(0)
                ? try SecretInput.fromTerminal(prompt: "Token for \(server): ")
                : try SecretInput.fromStandardInput()
            guard !token.isEmpty else { throw ToolError(.usage, "no token on stdin") }
            let credentials = Credentials(token: token, csrfToken: nil)
            connection = try self.connection.connect(environment: environment, credentials: .given(credentials))
            result = LoginResult(credentials: credentials, user: try verifiedUser(connection.adapter))
            if connection.adapter.kind == .pagespaceLegacy {
                Diagnostics.warning("a legacy token without its CSRF token can read but not send; log in with --email to send")
            }
        }
        let session = connection.session
        let kind = connection.adapter.kind
        if let previous = session.profile, Session.normalise(previous.server) != session.server || previous.api != kind {
            let previousKind = previous.api.map { "\($0.rawValue) API" } ?? "API not yet known"
            Diagnostics.warning(
                "profile \(session.profileName)'s login to \(previous.server) (\(previousKind)) is replaced by this one; "
                    + "log in with --profile NAME to keep both")
        }
        try session.store(result.credentials, api: kind, user: UserText.summary(result.user), model: model)
        var who = UserText.describe(result.user)
        if !who.isEmpty { who = " as " + who }
        Diagnostics.writeLine("Logged in to \(session.server)\(who) (profile \(session.profileName), \(kind.rawValue) API).")
    }

    /// The device flow: a code on stderr, an approval in a browser, an MCP key for the drives.
    private func deviceCredentials(_ adapter: APIAdapter) throws -> Credentials {
        let keyName = name ?? "ps-tools on " + Self.hostName()
        let token = try DeviceFlow(client: adapter.client).run(scope: DeviceFlow.scope(drives: drive, keyName: keyName)) { prompt in
            var lines = ["To log in, open \(prompt.verificationURI) in a browser and enter the code:", "    \(prompt.userCode)"]
            if let complete = prompt.verificationURIComplete { lines.append("(or open \(complete))") }
            for line in lines { Diagnostics.writeLine(TerminalSafeText.sanitize(line)) }
            Self.offerBrowser(prompt)
            Diagnostics.writeLine("Waiting for approval (the code expires in \(prompt.expiresIn / 60) minutes)...")
        }
        guard token.tokenType == "mcp" || token.accessToken.hasPrefix("mcp_") else {
            throw ToolError(.authenticationNeeded,
                "not stored: the server granted an OAuth access token, which reaches no AI route; "
                    + "run again with --drive ID to get an MCP key for a drive")
        }
        return Credentials(token: token.accessToken, csrfToken: nil)
    }

    /// Opens the verification page (with the code in it when the server gives that URL) where a
    /// browser can be opened, as gh does: on a terminal after Enter, else at once. The URL is
    /// the only argument; the user code, shown above, is no secret.
    static func offerBrowser(_ prompt: DeviceFlow.Prompt) {
        guard let opener = Browser.opener(environment: Environment.current) else { return }
        let url = [prompt.verificationURIComplete, prompt.verificationURI].compactMap { $0 }.first(where: Browser.isOpenable)
        guard let url else { return }
        if Terminal.isTerminal(0) {
            Diagnostics.writeLine("Press Enter to open it in your browser...")
            guard readLine() != nil else { return }
        }
        if Browser.open(url, with: opener) {
            Diagnostics.writeLine(TerminalSafeText.sanitize("Opened \(url) in your browser."))
        } else {
            Diagnostics.warning("could not run \(opener); open the URL yourself")
        }
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "this machine" }
        let name = String(cString: buffer)
        return name.isEmpty ? "this machine" : name
    }

    /// The user, proving the token works through routes its kind may use. A credential that
    /// reaches no AI route (an OAuth access token) is refused as a chat credential.
    private func verifiedUser(_ adapter: APIAdapter) throws -> JSON? {
        let reach = try adapter.reach()
        guard reach.pageAI || reach.globalAssistant else {
            throw ToolError(.authenticationNeeded, "not stored: \(reach.note ?? "this credential reaches no AI route")")
        }
        if !reach.globalAssistant {
            Diagnostics.warning("stored; it reaches \(reach.summary), not the Global assistant")
        }
        return reach.user
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

    /// The user as one safe line: the name, email or id a server gave (or config.json kept since
    /// login) may hold control sequences or newlines, shown as visible stand-ins.
    static func describe(_ user: JSON?) -> String {
        let name = user?["name"]?.stringValue, email = user?["email"]?.stringValue
        switch (name, email) {
        case let (name?, email?): return oneLine("\(name) <\(email)>")
        case let (name?, nil): return oneLine(name)
        case let (nil, email?): return oneLine(email)
        default: return oneLine(user?["id"]?.stringValue ?? "")
        }
    }

    /// `text` through TerminalSafeText, with newlines and tabs shown as their pictures too.
    static func oneLine(_ text: String) -> String {
        guard !TerminalSafeText.isSafe(text, allowingLineBreaks: false) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in TerminalSafeText.sanitize(text).unicodeScalars {
            scalars.append(scalar == "\n" || scalar == "\t" ? Unicode.Scalar(0x2400 + scalar.value)! : scalar)
        }
        return String(scalars)
    }
}
