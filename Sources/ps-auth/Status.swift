import ArgumentParser
import PSCore
import PSNet

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the server, the user, where the credential comes from, and whether it works.",
        usage: "ps-auth status [<options>]",
        discussion: """
            Prints one "key: value" line each for profile, server, model (when the profile has \
            one), api, credential, user, \
            reaches (Global assistant, Page AI agents), drives and works. The server is asked \
            through routes the credential may use: a session token through GET /api/auth/me \
            and /api/drives, an MCP key (which /api/auth/me refuses) through /api/drives; \
            --offline skips that. A stored credential is used only for the server (scheme, \
            host, port) it was given at login: with --server or PAGESPACE_API_URL naming \
            another, the credential line says whose it is, and it is not sent. Exits 4 when \
            there is no credential for the server (and the API needs one) or the server \
            refuses it.

            EXAMPLES:
              ps-auth status
              PAGESPACE_TOKEN=mcp_... ps-auth status --server https://pagespace.ai
              ps-auth status --offline --profile work

            \(ExitStatus.helpText([.success, .failure, .authenticationNeeded, .serverError, .networkError,
                                   .interrupted]))
            """)

    @OptionGroup var connection: ConnectionOptions

    @Flag(name: .long, help: "Do not contact the server.")
    var offline = false

    func run() throws {
        Interrupt.install()
        let session = try connection.resolveSession(environment: Environment.current)
        let out = RecordWriter()
        try out.writeText("profile: \(session.profileName)\n")
        try out.writeText("server: \(session.server) (from \(session.serverSource))\n")
        if let model = session.profileModel { try out.writeText("model: \(TerminalSafeText.sanitize(model))\n") }
        // A stored credential for another server is named, never used here.
        let heldBack = session.credentialsHeldBackFor.map { "; the profile's is for \($0), not sent here" } ?? ""
        if let source = session.credentialsSource {
            try out.writeText("credential: from \(source)\n")
        } else if session.api?.credentialOptional == true {
            try out.writeText("credential: none (the \(session.api!.rawValue) API needs none\(heldBack))\n")
        } else {
            try out.writeText("credential: none\(heldBack.isEmpty ? "" : " (" + heldBack.dropFirst(2) + ")")\n")
            _ = try session.requireCredentials()
            return
        }
        if offline {
            if let api = session.api { try out.writeText("api: \(api.rawValue)\n") }
            let stored = UserText.describe(session.profile?.user)
            if !stored.isEmpty { try out.writeText("user: \(stored)\n") }
            return
        }
        let connection = try self.connection.connect()
        try out.writeText("api: \(connection.adapter.kind.rawValue)\n")
        do {
            let reach = try connection.adapter.reach()
            let who = UserText.describe(reach.user)
            try out.writeText("user: \(who.isEmpty ? "(not named to this credential)" : who)\n")
            try out.writeText("reaches: \(reach.summary)\n")
            if let drives = reach.driveSummary { try out.writeText("drives: \(TerminalSafeText.sanitize(drives))\n") }
            if let note = reach.note { try out.writeText("note: \(note)\n") }
            try out.writeText("works: \(reach.pageAI || reach.globalAssistant ? "yes" : "no AI route")\n")
        } catch let error as ToolError where error.status == .authenticationNeeded {
            try out.writeText("works: no\n")
            throw error
        }
    }
}
