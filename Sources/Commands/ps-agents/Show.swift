import ArgumentParser
import PSCore
import PSNet

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show an agent's configuration: system prompt, tools, provider and model.",
        usage: "ps-agents show <agent> [<options>]",
        discussion: """
            Writes the configuration record as the server gives it (pageId, systemPrompt, \
            enabledTools, availableTools, aiProvider, aiModel, ...), or on a terminal a \
            readable summary with the tools marked on or off.

            EXAMPLES:
              ps-agents show "Research Assistant"
              ps-agents show page_123 | jq -r .systemPrompt
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The agent: its page id or its title.", valueName: "agent"), transform: IDArgument.nonEmpty)
    var agent: String

    func run() throws {
        Interrupt.install()
        let adapter = try connection.connect().adapter
        let configuring = try Capabilities.require(adapter, AgentConfiguring.self, toDo: "show an agent's configuration")
        let found = try AgentFinder.find(agent, adapter: adapter)
        let config = try configuring.agentConfig(found.id)
        let writer = RecordWriter()
        guard Output.isTerminal else { return try writer.write(config.record) }
        try writer.writeText(Self.describe(config, title: found.record?.displayText("title")))
    }

    static func describe(_ config: AgentConfig, title: String?) -> String {
        let record = config.record
        var out = ""
        if let title, !title.isEmpty { out += "agent: \(title)\n" }
        out += "id: \(record.displayText("pageId"))\n"
        let provider = record.displayText("aiProvider"), model = record.displayText("aiModel")
        out += "provider: \(provider.isEmpty ? "(default)" : provider)\n"
        out += "model: \(model.isEmpty ? "(default)" : model)\n"
        out += "tools:\n"
        let enabled = Set(config.enabledTools)
        let nameWidth = config.availableTools.map { TerminalSafeText.sanitize($0.name).count }.max() ?? 0
        for tool in config.availableTools {
            let name = TerminalSafeText.sanitize(tool.name)
            out += "  [\(enabled.contains(tool.name) ? "x" : " ")] \(name)"
            out += tool.description.isEmpty
                ? "\n" : String(repeating: " ", count: nameWidth - name.count + 2) + TerminalSafeText.sanitize(tool.description) + "\n"
        }
        let prompt = record["systemPrompt"]?.stringValue ?? ""
        out += "system prompt:\(prompt.isEmpty ? " (none)" : "")\n"
        for line in prompt.split(separator: "\n", omittingEmptySubsequences: false) where !prompt.isEmpty {
            out += "  " + TerminalSafeText.sanitize(String(line)) + "\n"
        }
        return out
    }
}
