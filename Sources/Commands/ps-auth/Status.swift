import ArgumentParser
import PSCore
import PSNet

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the server, the user, where the credential comes from, and whether it works.",
        usage: "ps-auth status [<options>]",
        discussion: """
            Prints one "key: value" line each (with --json, one JSON object of the same keys) for profile, server, model (when the profile has \
            one), api, credential, user, \
            reaches (Global assistant, Page AI agents), drives and works. The server is asked \
            through routes the credential may use: a session token through GET /api/auth/me \
            and /api/drives, an MCP key (which /api/auth/me refuses) through /api/drives; \
            --offline skips that. A stored credential is used only for the server (scheme, \
            host, port) it was given at login: with --server or PAGESPACE_API_URL naming \
            another, the credential line says whose it is, and it is not sent. Exits 4 when \
            there is no credential for the server (and the API needs one) or the server \
            refuses it. What a server names (the user, drives, models), and what was kept of it at \
            login, is shown with control characters as visible stand-ins (ESC as ␛).

            EXAMPLES:
              ps-auth status
              PAGESPACE_TOKEN=mcp_... ps-auth status --server https://pagespace.ai
              ps-auth status --offline --profile work
              ps-auth status --json | jq -r .works

            \(ExitStatus.helpText([.success, .failure, .authenticationNeeded, .serverError, .networkError,
                                   .interrupted]))
            """)

    @OptionGroup var connection: ConnectionOptions

    @Flag(name: .long, help: "Do not contact the server.")
    var offline = false

    @Flag(name: .long, help: "Write one JSON object of the same keys instead of lines.")
    var json = false

    func run() throws {
        Interrupt.install()
        let out = StatusOutput(json: json)
        do {
            try report(to: out)
            try out.finish()
        } catch {
            try? out.finish()
            throw error
        }
    }

    private func report(to out: StatusOutput) throws {
        let session = try connection.resolveSession(environment: Environment.current)
        try out.add("profile", "\(session.profileName)")
        try out.add("server", "\(session.server) (from \(session.serverSource))")
        if let model = session.profileModel { try out.add("model", "\(TerminalSafeText.sanitize(model))") }
        // A stored credential for another server is named, never used here.
        let heldBack = session.credentialsHeldBackFor.map { "; the profile's is for \($0), not sent here" } ?? ""
        if let source = session.credentialsSource {
            try out.add("credential", "from \(source)")
        } else if session.api?.credentialOptional == true {
            try out.add("credential", "none (the \(session.api!.rawValue) API needs none\(heldBack))")
        } else {
            try out.add("credential", "none\(heldBack.isEmpty ? "" : " (" + heldBack.dropFirst(2) + ")")")
            _ = try session.requireCredentials()
            return
        }
        if offline {
            if let api = session.api { try out.add("api", "\(api.rawValue)") }
            let stored = UserText.describe(session.profile?.user)
            if !stored.isEmpty { try out.add("user", "\(stored)") }
            return
        }
        let connection = try self.connection.connect()
        try out.add("api", "\(connection.adapter.kind.rawValue)")
        do {
            let reach = try connection.adapter.reach()
            let who = UserText.describe(reach.user)
            try out.add("user", "\(who.isEmpty ? "(not named to this credential)" : who)")
            try out.add("reaches", "\(reach.summary)")
            if let drives = reach.driveSummary { try out.add("drives", "\(TerminalSafeText.sanitize(drives))") }
            if let note = reach.note { try out.add("note", "\(note)") }
            try out.add("works", "\(reach.pageAI || reach.globalAssistant ? "yes" : "no AI route")")
        } catch let error as ToolError where error.status == .authenticationNeeded {
            try out.add("works", "no")
            throw error
        }
    }
}

/// `ps-auth status`'s report: "key: value" lines as they are known, or one JSON object at the end.
final class StatusOutput {
    private let json: Bool
    private let writer = RecordWriter()
    private var object = JSONObject()
    private var finished = false

    init(json: Bool) { self.json = json }

    /// Values hold what a server said or a stored file kept (a user's name, a model id): on a
    /// line they pass the sanitiser, newlines and tabs included, so no value can send a control
    /// sequence or forge a line of the report.
    func add(_ key: String, _ value: String) throws {
        if json { object[key] = .string(value) } else { try writer.writeText("\(key): \(UserText.oneLine(value))\n") }
    }

    func finish() throws {
        guard json, !finished else { return }
        finished = true
        try writer.write(.object(object))
    }
}
