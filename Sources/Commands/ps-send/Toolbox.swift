import PSCore
import PSNet
#if canImport(Glibc)
import Glibc
#endif

/// The tools offered to the model: each `--tool FILE` as `FILE --describe` defines it
/// (`{"name","description","parameters"}`) and each tool of each `--mcp` server, less those
/// `--deny-tool` names. Read before anything is sent: a file that cannot describe itself, or a
/// server that cannot be started, is exit 2 naming it.
struct Toolbox {
    struct Tool {
        enum Source {
            case executable(String)
            /// A tool of an MCP server, by its name there.
            case mcp(McpServer)
        }

        let name: String
        let description: String
        let parameters: JSON
        let source: Source

        /// Where it comes from, for messages: --tool FILE, --mcp SERVER.
        var origin: String {
            switch source {
            case .executable(let path): return "--tool " + TerminalSafeText.sanitize(path)
            case .mcp(let server): return "--mcp " + TerminalSafeText.sanitize(server.label)
            }
        }
    }

    let tools: [Tool]
    let servers: [McpServer]

    init(_ options: ToolOptions) throws {
        var tools: [Tool] = []
        var servers: [McpServer] = []
        func add(_ tool: Tool) throws {
            if let same = tools.first(where: { $0.name == tool.name }) {
                servers.forEach { $0.stop() }
                throw ToolError(.usage, "\(tool.origin) and \(same.origin) both have a tool named \(tool.name): a model could not tell them apart")
            }
            tools.append(tool)
        }
        for path in options.tool {
            try add(try Self.describe(path, options: options))
        }
        for argument in options.mcp {
            let server: McpServer
            do {
                server = try McpServer(argument, timeout: options.toolTimeout)
            } catch {
                servers.forEach { $0.stop() }
                throw error
            }
            servers.append(server)
            for tool in server.tools {
                guard let name = tool["name"]?.stringValue, Self.isToolName(name) else {
                    Diagnostics.warning("--mcp \(TerminalSafeText.sanitize(server.label)): its tool \(TerminalSafeText.sanitize(tool["name"]?.stringValue ?? "?")) "
                        + "is not offered: a model takes only names of 1-64 letters, digits, _ or -")
                    continue
                }
                var parameters = tool["parameters"] ?? [:]
                if parameters.objectValue == nil { parameters = ["type": "object", "properties": [:]] }
                try add(Tool(name: name, description: tool["description"]?.stringValue ?? "", parameters: parameters, source: .mcp(server)))
            }
        }
        self.servers = servers
        for name in options.denyTool where !tools.contains(where: { $0.name == name }) {
            servers.forEach { $0.stop() }
            throw ToolError(.usage, "--deny-tool \(TerminalSafeText.sanitize(name)): no tool given has that name (given: "
                + tools.map(\.name).joined(separator: ", ") + ")")
        }
        self.tools = tools.filter { !options.denyTool.contains($0.name) }
    }

    func tool(named name: String) -> Tool? { tools.first { $0.name == name } }

    /// Stops the MCP servers.
    func stop() { servers.forEach { $0.stop() } }

    /// The tools as OpenAI function definitions.
    var definitions: [JSON] {
        tools.map { tool in
            ["type": "function", "function": [
                "name": .string(tool.name), "description": .string(tool.description), "parameters": tool.parameters,
            ]]
        }
    }

    /// `FILE --describe`, bounded like a call.
    private static func describe(_ path: String, options: ToolOptions) throws -> Tool {
        let shown = TerminalSafeText.sanitize(path)
        guard access(path, X_OK) == 0 else {
            throw ToolError(.usage, "--tool \(shown): \(String(cString: strerror(errno))) (it must be an executable file)")
        }
        let run = ToolProcess(executable: path, arguments: ["--describe"], input: [])
        let result = try ToolProcesses.run([run], timeout: Double(options.toolTimeout), maxOutput: ToolOptions.maxToolOutput,
                                           environment: ToolProcesses.plainEnvironment())[0]
        guard result.succeeded else {
            throw ToolError(.usage, "--tool \(shown): \(path) --describe " + ToolCall.failure(result, timeout: options.toolTimeout))
        }
        guard let definition = try? JSON.parse(bytes: result.output), definition.objectValue != nil else {
            throw ToolError(.usage, "--tool \(shown): \(path) --describe printed no JSON object "
                + "(it should print {\"name\",\"description\",\"parameters\"})")
        }
        guard let name = definition["name"]?.stringValue, Self.isToolName(name) else {
            throw ToolError(.usage, "--tool \(shown): its \"name\" must be 1-64 letters, digits, _ or - (OpenAI's rule for a function name)")
        }
        let parameters = definition["parameters"] ?? ["type": "object", "properties": [:]]
        guard parameters.objectValue != nil else {
            throw ToolError(.usage, "--tool \(shown): its \"parameters\" must be a JSON schema object")
        }
        return Tool(name: name, description: definition["description"]?.stringValue ?? "", parameters: parameters, source: .executable(path))
    }

    static func isToolName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }
}
