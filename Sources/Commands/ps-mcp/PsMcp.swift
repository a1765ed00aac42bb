import ArgumentParser
import Foundation
import PSCore

/// ps-mcp: ps-send's bridge to MCP servers, an internal helper. It alone links the MCP Swift
/// SDK (and with it Foundation), so that ps-send does not; ps-send runs one per --mcp server and
/// speaks to it in NDJSON on its standard input and output (McpBridge).
@main
struct PsMcp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-mcp",
        abstract: "ps-send's bridge to an MCP server: an internal helper, not a command to run.",
        usage: "ps-mcp --serve < requests > replies",
        discussion: """
            ps-send --mcp runs it, one per server, in lib/ps-tools beside the commands' bin \
            folder; it comes in the package ps-tools-server. With --serve it reads requests on \
            standard input, one JSON object a line, and writes one reply a line on standard \
            output, each flushed. The first request names the server:

              {"connect":{"command":"uvx","args":["mcp-server-time"],"env":{"TZ":"UTC"}}}
              {"connect":{"url":"https://mcp.example.com/mcp"}}

            The server runs with ps-mcp's environment plus env; its standard error is kept \
            (the last 4 KiB) to say why it failed. A url is an MCP server over streamable HTTP \
            that answers in JSON (the SDK reads no event stream on Linux). The reply lists the \
            server's tools, {"tools":[{"name","description","parameters"}]}, parameters being \
            the tool's input JSON schema. Then each

              {"call":{"id":"call_1","name":"get_current_time","arguments":{...}},"timeout":60,"maxOutput":1048576}

            runs the call (several at once; replies come as each ends) and is answered \
            {"id":"call_1","output":TEXT} (the result's text parts, one per line; other \
            content is named, as [image image/png]) or {"id":"call_1","error":TEXT}: the \
            server's error result, or a call that took longer than timeout seconds, whose \
            result had more than maxOutput bytes, or that the server died during. A failure \
            that ends the bridge is one line {"fatal":TEXT}, then exit 1. End of input \
            disconnects, stops the server and exits 0.

            EXAMPLES:
              ps-send --mcp 'mcp-server-time --local-timezone UTC' "What time is it?"
              ps-send --mcp git "What changed in the last commit?"
              ps-mcp --version

            \(ExitStatus.helpText([.success, .failure, .usage]))
            """,
        version: ToolVersion.line)

    @Flag(name: .long, help: "Bridge one MCP server: requests on standard input, replies on standard output.")
    var serve = false

    static func main() { runAsTool() }

    func run() throws {
        guard serve else { throw ToolError(.usage, "an internal helper of ps-send: run ps-send --mcp SERVER instead") }
        McpBridge().serve()
    }
}
