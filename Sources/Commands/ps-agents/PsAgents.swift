import ArgumentParser
import PSCore
import PSNet

@main
struct PsAgents: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-agents",
        abstract: "Browse drives and their AI agents, show and change an agent's settings, make one, ask one.",
        discussion: """
            AI agents are PageSpace's AI_CHAT pages; each lives in a drive. Piped, every \
            subcommand writes NDJSON records (drives, agents, configurations, as the server \
            gives them; agent records carry their driveId and driveName); on a terminal, a \
            readable table or list instead.

            AGENT is an agent's page id or its title (ignoring case). A title that no agent \
            has exits 6; one that several agents have exits 2 and names them with their ids.

            ask writes the whole answer as the AI SDK's UI message stream (the same \
            Server-Sent Events ps-send writes), so ps-sse | ps-parts | ps-render show it. It \
            is never retried: the agent may already have answered.

            An MCP key reaches the agents of its drives; a session token reaches all of yours. \
            The pagespace-legacy API has drives, list, show and set (no ask, no create).

            EXAMPLES:
              ps-agents drives
              ps-agents list --drive demo-drive
              ps-agents show "Research Assistant"
              ps-agents set "Research Assistant" --enable-tool create_page \\
                  --disable-tool list_pages
              ps-agents set page_123 --system-prompt-file prompt.md --provider anthropic \\
                  --model anthropic/claude-haiku-4.5
              ps-agents create --drive demo-drive --title "Release notes" \\
                  --system-prompt-file prompt.md
              ps-agents ask "Research Assistant" "What changed this week?" | ps-sse \\
                  | ps-parts | ps-render
              ps-send --agent "Research Assistant" "Draft the summary" | ps-sse \\
                  | ps-parts | ps-render

            \(ConnectionOptions.environmentHelp)

            \(ExitStatus.helpText([.success, .failure, .usage, .authenticationNeeded, .forbidden, .notFound,
                                   .rateLimited, .serverError, .networkError, .interrupted, .brokenPipe]))
            """,
        version: ToolVersion.line,
        subcommands: [ListAgents.self, Drives.self, Show.self, SetConfig.self, Create.self, Ask.self],
        defaultSubcommand: ListAgents.self)

    static func main() { runAsTool() }
}

/// Where a system prompt comes from: a file (or stdin with -), or a short text.
struct SystemPromptOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Read the system prompt from this file (- for stdin).", valueName: "file"))
    var systemPromptFile: String?

    @Option(name: .long, help: ArgumentHelp("A short system prompt given inline.", valueName: "text"))
    var systemPrompt: String?

    func validate() throws {
        if systemPromptFile != nil && systemPrompt != nil {
            throw ValidationError("give --system-prompt-file or --system-prompt, not both")
        }
    }

    /// The prompt, or nil when none was given.
    func read() throws -> String? {
        if let systemPrompt { return systemPrompt }
        guard let path = systemPromptFile else { return nil }
        if path == "-" { try Terminal.refuseInteractiveStdin(usage: "usage: ps-agents ... --system-prompt-file - < prompt.md") }
        var bytes: [UInt8] = []
        try ChunkReader.open(path: path).forEachChunk { chunk in
            bytes.append(contentsOf: chunk)
            if bytes.count > 1 << 20 { throw ToolError(.usage, "the system prompt in \(path) is over 1 MiB") }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ToolError(.malformedInput, "the system prompt in \(path) is not UTF-8 text")
        }
        return text
    }
}

/// Records piped, a readable text on a terminal.
enum Output {
    static var isTerminal: Bool { Terminal.isTerminal(1) }
}
