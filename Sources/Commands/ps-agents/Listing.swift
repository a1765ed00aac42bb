import ArgumentParser
import PSCore
import PSNet

struct Drives: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the drives the credential reaches.",
        usage: "ps-agents drives [<options>]",
        discussion: """
            Writes one drive record a line (id, name, slug, role, ...), or a table on a terminal.

            EXAMPLES:
              ps-agents drives
              ps-agents drives | jq -r .id
            """)

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        Interrupt.install()
        let adapter = try connection.connect().adapter
        let directory = try Capabilities.require(adapter, AgentDirectory.self, toDo: "list drives")
        let drives = try directory.drives()
        let writer = RecordWriter()
        guard Output.isTerminal else { return try drives.forEach(writer.write) }
        var table = TextTable(headers: ["ID", "NAME", "SLUG", "ROLE"])
        for drive in drives { table.add(["id", "name", "slug", "role"].map { drive.displayText($0) }) }
        try writer.writeText(table.render(width: Terminal.width(fd: 1), empty: "No drives.\n"))
    }
}

struct ListAgents: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the AI agents, drive by drive (the default subcommand).",
        usage: "ps-agents [list] [--drive <drive>] [<options>]",
        discussion: """
            Writes one agent record a line (id, title, aiProvider, aiModel, enabledTools, \
            driveId, driveName, ...), or on a terminal each drive followed by its agents.

            EXAMPLES:
              ps-agents
              ps-agents list --drive drive_123
              ps-agents list | jq -r 'select(.aiProvider == "openai") | .title'
            """)

    @OptionGroup var connection: ConnectionOptions

    @Option(name: .long, help: ArgumentHelp("Only this drive (its id, slug or name).", valueName: "drive"), transform: IDArgument.nonEmpty)
    var drive: String?

    func run() throws {
        Interrupt.install()
        let adapter = try connection.connect().adapter
        let directory = try Capabilities.require(adapter, AgentDirectory.self, toDo: "list agents")
        let listings = try AgentFinder.drives(directory, matching: drive)
        let writer = RecordWriter()
        guard Output.isTerminal else {
            for listing in listings { try listing.agents.forEach(writer.write) }
            return
        }
        var text = ""
        for listing in listings {
            text += TerminalSafeText.sanitize(listing.driveName) + " (" + TerminalSafeText.sanitize(listing.driveID) + ")\n"
            var table = TextTable(headers: ["ID", "TITLE", "PROVIDER/MODEL", "TOOLS"], indent: 2)
            for agent in listing.agents {
                let tools = agent["enabledToolsCount"]?.intValue.map(String.init) ?? ""
                table.add([agent.displayText("id"), agent.displayText("title"), agent.displayText("aiProvider") + "/" + agent.displayText("aiModel"), tools])
            }
            text += table.render(width: Terminal.width(fd: 1), empty: "  No agents.\n")
        }
        try writer.writeText(text.isEmpty ? "No drives.\n" : text)
    }
}

