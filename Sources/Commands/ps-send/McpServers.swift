import PSCore
import PSNet
#if canImport(Glibc)
import Glibc
#endif

/// `--mcp SERVER`: an MCP server, reached through ps-mcp (the helper that alone links the MCP
/// SDK and Foundation), one child per server speaking NDJSON on its stdin and stdout (the
/// protocol is in ps-mcp(1)). SERVER is a name in `$XDG_CONFIG_HOME/ps-tools/mcp.json`
/// (`{"mcpServers":{NAME:{"command","args","env"}}}`, as other MCP clients read it), an
/// http(s) URL (streamable HTTP), or a command line, split at spaces.
final class McpServer {
    static let helper = "ps-mcp"
    static let package = "ps-tools-server"

    let label: String
    let pid: pid_t
    private let input: Int32
    private let output: Int32
    private var buffered: [UInt8] = []
    private var replies: [String: JSON] = [:]
    /// The longest reply line read: a result within the cap, escaped in JSON.
    private let longestLine = ToolOptions.maxToolOutput * 6 + 4096

    /// The server's connect request: what to run (or reach), and a name for messages.
    static func spec(_ argument: String, environment: [String: String] = Environment.current) throws -> (label: String, connect: JSON) {
        if argument.hasPrefix("http://") || argument.hasPrefix("https://") {
            return (argument, ["url": .string(argument)])
        }
        let words = argument.split(separator: " ").map(String.init)
        guard let command = words.first else { throw ToolError(.usage, "--mcp needs a server: a name in mcp.json, a URL or a command") }
        if words.count == 1, let configured = try configured(command, environment: environment) {
            return (command, configured)
        }
        return (argument, ["command": .string(command), "args": .array(words.dropFirst().map(JSON.string))])
    }

    /// The server NAME of mcp.json, nil when there is no such file or no such name in it.
    private static func configured(_ name: String, environment: [String: String]) throws -> JSON? {
        let path = ConfigPaths(environment: environment).directory + "/mcp.json"
        guard let bytes = try SecureFile.read(path) else { return nil }
        guard let config = try? JSON.parse(bytes: bytes), let servers = config["mcpServers"]?.objectValue else {
            throw ToolError(.usage, "\(path) is not {\"mcpServers\":{NAME:{\"command\",\"args\",\"env\"}}}")
        }
        guard let server = servers[name] else { return nil }
        var connect = JSONObject()
        if let url = server["url"]?.stringValue {
            connect["url"] = .string(url)
        } else {
            guard let command = server["command"]?.stringValue else {
                throw ToolError(.usage, "\(path): server \(TerminalSafeText.sanitize(name)) has no \"command\" (nor \"url\")")
            }
            connect["command"] = .string(command)
            connect["args"] = .array((server["args"]?.arrayValue ?? []).compactMap { $0.stringValue.map(JSON.string) })
            if let env = server["env"]?.objectValue {
                connect["env"] = .object(JSONObject(env.compactMap { key, value in value.stringValue.map { (key, JSON.string($0)) } }))
            }
        }
        return .object(connect)
    }

    /// Starts ps-mcp for the server and reads its tools (`[{name, description, parameters}]`).
    init(_ argument: String, timeout: Int) throws {
        let (label, connect) = try Self.spec(argument)
        guard let helper = InternalHelper.path(Self.helper) else {
            let places = InternalHelper.folders().joined(separator: " nor in ")
            throw ToolError(.usage, "--mcp needs \(Self.helper), which the package \(Self.package) provides "
                + "(install it; it is neither in \(places.isEmpty ? "the folder of ps-send" : places))")
        }
        self.label = label
        let pipes = try ChildSpawn.pipes(2)
        let (toChild, fromChild) = (pipes[0], pipes[1])
        do {
            pid = try ChildSpawn.start(helper, arguments: [helper, "--serve"], environment: ToolProcesses.plainEnvironment(),
                                       streams: [0: .descriptor(toChild.read), 1: .descriptor(fromChild.write)], ownGroup: true)
        } catch {
            close(toChild.write); close(fromChild.read)
            throw ToolError(.failure, "cannot run \(helper): \(error.reason)")
        }
        input = toChild.write
        output = fromChild.read
        try send(["connect": connect, "timeout": .integer(Int64(timeout))])
        let answer = try reply(deadline: MonotonicClock.now + Double(timeout) + 5) { $0["tools"] != nil || $0["fatal"] != nil }
        if let fatal = answer?["fatal"]?.stringValue {
            stop()
            throw ToolError(.usage, "--mcp \(TerminalSafeText.sanitize(label)): \(TerminalSafeText.sanitize(fatal))")
        }
        guard let tools = answer?["tools"]?.arrayValue else {
            stop()
            throw ToolError(.usage, "--mcp \(TerminalSafeText.sanitize(label)): the server did not list its tools within \(timeout) s")
        }
        self.tools = tools
    }

    private(set) var tools: [JSON] = []

    /// Asks for a call; its answer comes with `result(for:)`.
    func start(_ call: ToolCall, name: String, timeout: Int) {
        try? send(["call": ["id": .string(call.id), "name": .string(name), "arguments": call.input],
                   "timeout": .integer(Int64(timeout)), "maxOutput": .integer(Int64(ToolOptions.maxToolOutput))])
    }

    /// The call's output, or why there is none.
    func result(for id: String, deadline: Double) -> Result<String, McpCallError> {
        do {
            guard let answer = try reply(deadline: deadline, { $0["id"]?.stringValue == id }) else {
                return .failure(.timedOut)
            }
            if let output = answer["output"]?.stringValue { return .success(output) }
            if let fatal = answer["fatal"]?.stringValue { return .failure(.failed(fatal, limit: true)) }
            return .failure(.failed(answer["error"]?.stringValue ?? "no result", limit: answer["limit"]?.boolValue == true))
        } catch let error as ToolError {
            return .failure(.failed(error.message, limit: true))
        } catch {
            return .failure(.failed("\(error)", limit: true))
        }
    }

    func stop() {
        close(input)
        kill(-pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        close(output)
    }

    private func send(_ request: JSON) throws {
        let error = FileDescriptorOutput.writeAll(fd: input, Array((request.serialized() + "\n").utf8))
        if error != 0 { throw ToolError(.failure, "\(Self.helper) for \(label) stopped reading (\(String(cString: strerror(error))))") }
    }

    /// The first reply that `matches`, reading lines until it comes, nil past the deadline.
    /// Replies to other calls are kept for their turn.
    private func reply(deadline: Double, _ matches: (JSON) -> Bool) throws -> JSON? {
        if let kept = replies.first(where: { matches($0.value) }) {
            replies[kept.key] = nil
            return kept.value
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            while let newline = buffered.firstIndex(of: 0x0A) {
                let line = Array(buffered[..<newline])
                buffered.removeFirst(newline + 1)
                guard let reply = try? JSON.parse(bytes: line) else { continue }
                if reply["fatal"] != nil || matches(reply) { return reply }
                if let id = reply["id"]?.stringValue { replies[id] = reply }
            }
            if buffered.count > longestLine {
                throw ToolError(.failure, "\(Self.helper) for \(label) wrote a line longer than any reply")
            }
            let left = deadline - MonotonicClock.now
            if left <= 0 || Interrupt.isRequested { return nil }
            var entry = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(min(left, 0.1) * 1000)) > 0 else { continue }
            let count = read(output, &chunk, chunk.count)
            if count <= 0 {
                return ["fatal": .string("\(Self.helper) for \(label) ended")]
            }
            buffered.append(contentsOf: chunk[..<count])
        }
    }
}

enum McpCallError: Error {
    case timedOut
    /// `limit`: past the time or size limit, or the server is gone.
    case failed(String, limit: Bool)
}
