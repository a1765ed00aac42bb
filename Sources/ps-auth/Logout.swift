import ArgumentParser
import PSCore
import PSNet

struct Logout: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tell the server to end the session, then forget the stored credential.",
        usage: "ps-auth logout [<options>]",
        discussion: """
            Asks the server to end the session where the API has a way to (a ps_sess_ token on \
            the current API, the legacy API's logout); an MCP key is revoked in PageSpace's \
            settings instead. The stored token is forgotten even when the server cannot be \
            reached (a warning says so). A token in PAGESPACE_TOKEN is not stored: unset it.

            EXAMPLES:
              ps-auth logout
              ps-auth logout --profile work --local

            \(ExitStatus.helpText([.success, .failure, .interrupted]))
            """)

    @OptionGroup var connection: ConnectionOptions

    @Flag(name: .long, help: "Only forget the credential; do not contact the server.")
    var local = false

    func run() throws {
        Interrupt.install()
        var environment = Environment.current
        environment["PAGESPACE_TOKEN"] = nil
        let session = try connection.resolveSession(environment: environment)
        if Environment.value("PAGESPACE_TOKEN").map({ !$0.isEmpty }) == true {
            Diagnostics.warning("PAGESPACE_TOKEN is set and still overrides stored credentials; unset it")
        }
        guard session.credentials != nil else {
            Diagnostics.writeLine("Not logged in (profile \(session.profileName)).")
            return
        }
        if !local {
            do {
                let http = HTTPClient(options: try connection.httpOptions(environment: environment))
                var resolved = session
                let kind = try APIKindDetector.kind(for: &resolved, http: http)
                try APIAdapters.make(kind, client: APIClient(session: resolved, http: http)).logout()
            } catch let error as ToolError where error.status != .interrupted {
                Diagnostics.warning("the server was not told (\(error.message)); forgetting the credential anyway")
            }
        }
        var store = try CredentialStore.load(session.paths.credentials)
        store[session.profileName] = nil
        try store.save(session.paths.credentials)
        var config = session.config
        if var profile = config[session.profileName] {
            profile.user = nil
            config[session.profileName] = profile
            try config.save(session.paths.config)
        }
        Diagnostics.writeLine("Logged out of \(session.server) (profile \(session.profileName)).")
    }
}
