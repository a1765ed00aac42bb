import ArgumentParser
import PSCore
import PSNet

struct SetConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change an agent's system prompt, tools, provider or model.",
        usage: "ps-agents set <agent> [--enable-tool <tool>] [<options>]",
        discussion: """
            Only what is given changes. Tools are switched on and off one by one against the \
            agent's current list; a tool the agent cannot have (not among its availableTools; \
            ps-agents show lists them) is refused before anything is sent (exit 2). The \
            provider and model are checked by the server (a model needs its provider). The \
            change applies for everyone using the agent. Writes the configuration the server \
            answers with.

            EXAMPLES:
              ps-agents set "Research Assistant" --enable-tool create_page
              ps-agents set page_123 --system-prompt-file prompt.md
              cat prompt.md | ps-agents set page_123 --system-prompt-file -
              ps-agents set page_123 --provider openai --model openai/gpt-5.4-mini
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The agent: its page id or its title.", valueName: "agent"), transform: IDArgument.nonEmpty)
    var agent: String

    @OptionGroup var prompt: SystemPromptOptions

    @Option(name: .long, help: ArgumentHelp("Switch this tool on (repeatable).", valueName: "tool"))
    var enableTool: [String] = []

    @Option(name: .long, help: ArgumentHelp("Switch this tool off (repeatable).", valueName: "tool"))
    var disableTool: [String] = []

    @Option(name: .long, help: ArgumentHelp("The AI provider the agent uses.", valueName: "name"))
    var provider: String?

    @Option(name: .long, help: ArgumentHelp("The model the agent uses (with its provider).", valueName: "name"))
    var model: String?

    func validate() throws {
        if prompt.systemPrompt == nil && prompt.systemPromptFile == nil && enableTool.isEmpty && disableTool.isEmpty
            && provider == nil && model == nil {
            throw ValidationError("nothing to change: give --system-prompt-file, --enable-tool, --disable-tool, --provider or --model")
        }
        if let both = Set(enableTool).intersection(disableTool).first {
            throw ValidationError("--enable-tool and --disable-tool both name \(both)")
        }
    }

    func run() throws {
        Interrupt.install()
        var change = AgentConfigChange(systemPrompt: try prompt.read(), provider: provider, model: model)
        let adapter = try connection.connect().adapter
        let configuring = try Capabilities.require(adapter, AgentConfiguring.self, toDo: "change an agent's configuration")
        let found = try AgentFinder.find(agent, adapter: adapter)
        if !enableTool.isEmpty || !disableTool.isEmpty {
            let current = try configuring.agentConfig(found.id)
            change.enabledTools = try Self.tools(current, enable: enableTool, disable: disableTool)
        }
        let answer = try configuring.updateAgentConfig(found.id, change)
        let writer = RecordWriter()
        guard Output.isTerminal else { return try writer.write(answer) }
        try writer.writeText("updated\n" + Show.describe(try configuring.agentConfig(found.id), title: found.record?.displayText("title")))
    }

    /// The enabled tools after the change, in the agent's order with new ones at the end;
    /// a tool that is not available is a usage error that lists those that are.
    static func tools(_ config: AgentConfig, enable: [String], disable: [String]) throws -> [String] {
        let available = config.availableTools.map(\.name)
        if let unknown = (enable + disable).first(where: { !available.contains($0) }) {
            throw ToolError(.usage, "the agent cannot have the tool \(TerminalSafeText.sanitize(unknown)); its available tools: "
                + TerminalSafeText.sanitize(available.joined(separator: ", ")))
        }
        var tools = config.enabledTools.filter { !disable.contains($0) }
        for tool in enable where !tools.contains(tool) { tools.append(tool) }
        return tools
    }
}
