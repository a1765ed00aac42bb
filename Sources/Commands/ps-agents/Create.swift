import ArgumentParser
import PSCore
import PSNet

struct Create: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make a new AI agent (an AI_CHAT page) in a drive.",
        usage: "ps-agents create --drive <drive> --title <text> [<options>]",
        discussion: """
            Writes the new page's record (its id first among the fields), or on a terminal \
            one line naming it.

            EXAMPLES:
              ps-agents create --drive demo-drive --title "Release notes"
              ps-agents create --drive drive_123 --title Reviewer \\
                  --system-prompt-file reviewer.md
              ps-agents create --drive drive_123 --title Reviewer | jq -r .id
            """)

    @OptionGroup var connection: ConnectionOptions

    @Option(name: .long, help: ArgumentHelp("The drive to make it in (its id, slug or name).", valueName: "drive"), transform: IDArgument.nonEmpty)
    var drive: String

    @Option(name: .long, help: ArgumentHelp("The agent's title.", valueName: "text"))
    var title: String

    @OptionGroup var prompt: SystemPromptOptions

    func validate() throws {
        if title.allSatisfy(\.isWhitespace) { throw ValidationError("--title must not be blank") }
    }

    func run() throws {
        Interrupt.install()
        let systemPrompt = try prompt.read()
        let adapter = try connection.connect().adapter
        let creating = try Capabilities.require(adapter, AgentCreating.self, toDo: "create agents")
        var driveID = drive
        if let directory = adapter as? AgentDirectory {
            driveID = try AgentFinder.drives(directory, matching: drive).first?.driveID ?? drive
        }
        let page = try creating.createAgent(NewAgent(driveID: driveID, title: title, systemPrompt: systemPrompt))
        let writer = RecordWriter()
        guard Output.isTerminal else { return try writer.write(page) }
        try writer.writeText("created \(page.displayText("id")) \(page.displayText("title")) in \(TerminalSafeText.sanitize(driveID))\n")
    }
}
