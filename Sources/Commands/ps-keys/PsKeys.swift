import ArgumentParser
import PSCore
import PSNet

@main
struct PsKeys: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-keys",
        abstract: "List and revoke the MCP keys and OAuth grants on your PageSpace account.",
        discussion: """
            MCP keys (mcp_...) are the credentials scripts use; the server never shows a key \
            again after it is made, so a list names them by id, name and first characters. \
            Listing and revoking keys takes a browser session token or an OAuth access token \
            (ps_at_..., given in PAGESPACE_TOKEN); an MCP key cannot manage keys. OAuth \
            grants (connected apps, such as a device login) take a session token, and the \
            server asks for a fresh confirmation (passkey or e-mail link) before revoking one.

            Piped, records (one per key or grant, as the server gives them); on a terminal, a \
            table. A revoked key stops working at once: requests with it then exit 4.

            EXAMPLES:
              ps-keys
              ps-keys list | jq -r 'select(.name == "ci") | .id'
              ps-keys revoke key_123
              ps-keys grants
              ps-keys revoke-grant grant_123 --step-up-token-stdin < step-up.txt

            \(ConnectionOptions.environmentHelp)

            \(ExitStatus.helpText([.success, .failure, .usage, .authenticationNeeded, .forbidden, .notFound,
                                   .rateLimited, .serverError, .networkError, .interrupted, .brokenPipe]))
            """,
        version: ToolVersion.line,
        subcommands: [ListKeys.self, Revoke.self, Grants.self, RevokeGrant.self],
        defaultSubcommand: ListKeys.self)

    static func main() { runAsTool() }
}

struct ListKeys: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the MCP keys (the default subcommand).",
        usage: "ps-keys [list] [<options>]",
        discussion: """
            Writes one record per key that is not revoked: id, name, tokenPrefix, createdAt, \
            lastUsed, isScoped, driveScopes.
            """)

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        Interrupt.install()
        let adapter = try connection.connect().adapter
        let keys = try Capabilities.require(adapter, KeyManagement.self, toDo: "manage MCP keys").keys()
        let writer = RecordWriter()
        guard Terminal.isTerminal(1) else { return try keys.forEach(writer.write) }
        var table = TextTable(headers: ["ID", "NAME", "PREFIX", "CREATED", "LAST USED", "DRIVES"])
        for key in keys {
            let drives = (key["driveScopes"]?.arrayValue ?? []).map { $0["name"]?.stringValue ?? $0["id"]?.stringValue ?? "?" }
            table.add([
                key.displayText("id"), key.displayText("name"), key.displayText("tokenPrefix") + "…", day(key.displayText("createdAt")),
                day(key.displayText("lastUsed")), drives.isEmpty ? "all" : TerminalSafeText.sanitize(drives.joined(separator: ", ")),
            ])
        }
        try writer.writeText(table.render(width: Terminal.width(fd: 1), empty: "No MCP keys.\n"))
    }
}

struct Revoke: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Revoke an MCP key: it stops working at once.",
        usage: "ps-keys revoke <id> [<options>]",
        discussion: "Writes {\"id\":ID,\"revoked\":true}. An unknown key exits 6.")

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The key's id (from ps-keys list; not the key itself).", valueName: "id"), transform: IDArgument.nonEmpty)
    var id: String

    func validate() throws {
        if id.hasPrefix("mcp_") { throw ValidationError("give the key's id (ps-keys list shows it), never the key itself") }
    }

    func run() throws {
        Interrupt.install()
        let adapter = try connection.connect().adapter
        try Capabilities.require(adapter, KeyManagement.self, toDo: "manage MCP keys").revokeKey(id)
        try RecordWriter().write(["id": .string(id), "revoked": true])
    }
}

struct Grants: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the OAuth grants (connected apps) on the account.",
        usage: "ps-keys grants [<options>]",
        discussion: "Writes one record per grant: id, clientName, scopeDescriptions, createdAt. Needs a session token.")

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        Interrupt.install()
        let adapter = try connection.connect().adapter
        let grants = try Capabilities.require(adapter, GrantManagement.self, toDo: "manage OAuth grants").grants()
        let writer = RecordWriter()
        guard Terminal.isTerminal(1) else { return try grants.forEach(writer.write) }
        var table = TextTable(headers: ["ID", "APP", "CREATED", "ACCESS"])
        for grant in grants {
            let access = (grant["scopeDescriptions"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: " ")
            table.add([grant.displayText("id"), grant.displayText("clientName"), day(grant.displayText("createdAt")),
                       TerminalSafeText.sanitize(access)])
        }
        try writer.writeText(table.render(width: Terminal.width(fd: 1), empty: "No OAuth grants.\n"))
    }
}

struct RevokeGrant: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke-grant",
        abstract: "Revoke an OAuth grant and the tokens issued under it.",
        usage: "ps-keys revoke-grant <id> [--step-up-token-stdin] [<options>]",
        discussion: """
            The server wants a fresh confirmation first (a step-up token from a passkey or an \
            e-mail link, good once); without one it refuses (exit 4) and the grant is best \
            revoked in the browser (Settings, Account, Connected apps). Writes \
            {"id":ID,"revoked":true}. An unknown grant exits 6.
            """)

    @OptionGroup var connection: ConnectionOptions

    @Flag(name: .long, help: "Read a step-up token from the first line of stdin.")
    var stepUpTokenStdin = false

    @Argument(help: ArgumentHelp("The grant's id (from ps-keys grants).", valueName: "id"), transform: IDArgument.nonEmpty)
    var id: String

    func run() throws {
        Interrupt.install()
        var stepUp: String?
        if stepUpTokenStdin {
            try Terminal.refuseInteractiveStdin(usage: "usage: ps-keys revoke-grant ID --step-up-token-stdin < token-file")
            stepUp = try SecretInput.fromStandardInput()
            guard stepUp?.isEmpty == false else { throw ToolError(.usage, "no step-up token on stdin") }
        }
        let adapter = try connection.connect().adapter
        try Capabilities.require(adapter, GrantManagement.self, toDo: "manage OAuth grants").revokeGrant(id, stepUpToken: stepUp)
        try RecordWriter().write(["id": .string(id), "revoked": true])
    }
}

/// The date part of an ISO 8601 timestamp ("-" when none).
func day(_ timestamp: String) -> String { timestamp.isEmpty ? "-" : String(timestamp.prefix(10)) }
