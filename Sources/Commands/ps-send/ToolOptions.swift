import ArgumentParser
import PSCore
import PSNet

/// The options that give the model tools ps-send runs itself (ToolLoop).
struct ToolOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Offer this executable as a tool (repeatable). FILE --describe prints its definition; a call runs FILE, arguments as JSON on stdin.",
        valueName: "file"), completion: .file())
    var tool: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Offer this MCP server's tools (repeatable). A name in mcp.json, an http(s) URL, or a command line (stdio).",
        valueName: "server"))
    var mcp: [String] = []

    @Option(name: .long, help: ArgumentHelp("Do not offer the tool NAME (repeatable). A call of it then ends the run (exit 10).", valueName: "name"))
    var denyTool: [String] = []

    @Flag(name: .long, help: "Ask before each tool call. Only on a terminal (stdin and stderr); refused otherwise (exit 2).")
    var confirm = false

    @Option(name: .long, help: ArgumentHelp("The most steps of tool calls (default 10). A model that asks for more: exit 10.", valueName: "n"))
    var maxToolSteps = 10

    @Option(name: .long, help: ArgumentHelp("Seconds a tool call may take (default 60). Past it, the call is stopped and the model told.", valueName: "seconds"))
    var toolTimeout = 60

    /// The most a tool call may print: more is no use as a model's context.
    static let maxToolOutput = 1 << 20

    var offersTools: Bool { !tool.isEmpty || !mcp.isEmpty }

    func validate() throws {
        if maxToolSteps < 1 { throw ValidationError("--max-tool-steps must be at least 1") }
        if toolTimeout < 1 { throw ValidationError("--tool-timeout must be at least 1") }
        if !offersTools && (confirm || !denyTool.isEmpty) {
            throw ValidationError("--confirm and --deny-tool go with --tool or --mcp")
        }
        if confirm && !(Terminal.isTerminal(0) && Terminal.isTerminal(2)) {
            throw ValidationError("--confirm asks on a terminal, and stdin or stderr is not one: run unattended without --confirm "
                + "(only the tools given are offered; --deny-tool takes one away)")
        }
    }
}
