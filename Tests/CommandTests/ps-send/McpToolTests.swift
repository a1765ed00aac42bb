import Foundation
import Testing
import TestSupport

/// `ps-send --mcp SERVER`: an MCP server's tools, offered and run through ps-mcp (the helper
/// that links the MCP SDK). Real servers from PyPI started by the tests (mcp-server-time,
/// mcp-server-git) and one of the tests' own (MCP/hostile_mcp_server.py, on the official
/// Python SDK) that fails, dawdles, answers too much, leaks a secret or dies mid-call; against
/// the local server's openai dialect, whose model calls what a message names (ToolScript).
@Suite struct McpToolTests {
    /// The venv scripts/setup --test makes with the PyPI packages.
    static let venv = Executables.packageRoot.appendingPathComponent(".build/mcp-venv/bin").path
    static let hostile = "\(venv)/python " + Executables.packageRoot.appendingPathComponent("Tests/CommandTests/MCP/hostile_mcp_server.py").path

    static func parts(_ text: String) throws -> [[String: Any]] {
        ClientToolTests.parts(try Records.parse(text).last)
    }

    @Test func mcpServerTimeAnswersAndTheModelSeesIt() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try ClientToolTests.sandbox(server)
        let message = #"call:get_current_time{"timezone":"Asia/Tokyo"} call:convert_time{"source_timezone":"UTC","time":"12:00","target_timezone":"Europe/Paris"}"#
        let run = try sandbox.shell(
            "ps-send --model ps-demo --mcp '\(Self.venv)/mcp-server-time --local-timezone UTC' \"$MSG\" | ps-sse | ps-parts --final",
            env: ["MSG": message])
        #expect(run.status == 0, "\(run.stderrText)")
        let parts = try Self.parts(run.stdoutText)
        let outputs = parts.filter { $0["state"] as? String == "output-available" }.compactMap { $0["output"] as? String }
        #expect(outputs.count == 2, "\(parts)")
        #expect(outputs.first?.contains("\"timezone\": \"Asia/Tokyo\"") == true, "\(outputs)")
        #expect(outputs.last?.contains("2026") == true || outputs.last?.contains("13:00") == true, "\(outputs)")
        let offered = (try ClientToolTests.completions(server).first?["tools"] as? [[String: Any]] ?? [])
            .compactMap { ($0["function"] as? [String: Any])?["name"] as? String }
        #expect(offered.contains("get_current_time") && offered.contains("convert_time"), "\(offered)")
    }

    /// mcp-server-git named in mcp.json (the shape other MCP clients read), its env passed on.
    @Test func mcpServerGitFromMcpJson() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try ClientToolTests.sandbox(server)
        let repo = sandbox.directory + "/repo"
        let made = try sandbox.shell("""
            git init -q '\(repo)' && cd '\(repo)' && printf 'launch: 15 January\\n' > notes.md && git add notes.md \
            && git -c user.name=Demo -c user.email=demo@example.com commit -q -m 'Write down the launch date'
            """)
        try #require(made.status == 0, "\(made.stderrText)")
        let config = #"{"mcpServers":{"git":{"command":"\#(Self.venv)/mcp-server-git","args":["--repository","\#(repo)"],"env":{"GIT_AUTHOR_NAME":"x"}}}}"#
        try FileManager.default.createDirectory(atPath: sandbox.directory + "/config/ps-tools", withIntermediateDirectories: true)
        try config.write(toFile: sandbox.directory + "/config/ps-tools/mcp.json", atomically: true, encoding: .utf8)
        let message = #"call:git_log{"repo_path":"\#(repo)","max_count":1} call:git_status{"repo_path":"\#(repo)"}"#
        let run = try sandbox.shell("ps-send --model ps-demo --mcp git \"$MSG\" | ps-sse | ps-parts --final", env: ["MSG": message])
        #expect(run.status == 0, "\(run.stderrText)")
        let outputs = try Self.parts(run.stdoutText).compactMap { $0["output"] as? String }
        #expect(outputs.first?.contains("Write down the launch date") == true, "\(outputs)")
        #expect(outputs.last?.contains("nothing to commit") == true || outputs.last?.contains("working tree clean") == true, "\(outputs)")
        let unknown = try sandbox.run("ps-send", ["--model", "ps-demo", "--mcp", "nosuchserver", "hi"])
        #expect(unknown.status == 2 && unknown.stderrText.contains("--mcp nosuchserver:"), "\(unknown.stderrText)")
    }

    /// The tests' own server: an error result, a call past --tool-timeout, a result over the cap
    /// and one the transport cannot hold (the server is then stopped): each an error for the
    /// model and, past a limit, a line on stderr; the server still answers the next call. The
    /// timeout leaves room for a slow start of the Python SDK on a busy machine; the slow call
    /// takes 30 s.
    @Test func errorsSlownessAndHugeOutput() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try ClientToolTests.sandbox(server)
        let message = #"call:fail call:slow call:huge{"megabytes":2} then call:echo{"text":"still here"}"#
        let run = try sandbox.shell(
            "ps-send --model ps-demo --tool-timeout 10 --mcp '\(Self.hostile)' \"$MSG\" | ps-sse | ps-parts --final", env: ["MSG": message])
        #expect(run.status == 0, "\(run.stderrText)")
        let parts = try Self.parts(run.stdoutText)
        let errors = parts.filter { $0["state"] as? String == "output-error" }.compactMap { $0["errorText"] as? String }
        #expect(errors.count == 3, "\(parts)")
        #expect(errors.contains { $0.contains("cannot do it") || $0.contains("Error executing tool fail") }, "\(errors)")
        #expect(errors.contains("took longer than 10 s") && errors.contains("the result has more than 1048576 bytes"), "\(errors)")
        #expect(parts.contains { $0["output"] as? String == "echo: still here" }, "\(parts)")
        let lines = run.stderrText.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasPrefix("ps-send: warning: tool ") }, "\(lines)")

        let tooBig = try sandbox.run("ps-send", ["--model", "ps-demo", "--mcp", Self.hostile, #"call:huge{"megabytes":20}"#])
        #expect(tooBig.status == 0, "\(tooBig.stderrText)")
        #expect(tooBig.stderrText.contains("sent a message of more than 8388608 bytes, and was stopped"), "\(tooBig.stderrText)")
    }

    /// The server runs with the plain environment (never the credential) plus mcp.json's env.
    @Test func aServerSeesOnlyThePlainEnvironmentAndItsEnv() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try ClientToolTests.sandbox(server)
        let script = Executables.packageRoot.appendingPathComponent("Tests/CommandTests/MCP/hostile_mcp_server.py").path
        let config = #"{"mcpServers":{"hostile":{"command":"\#(Self.venv)/python","args":["\#(script)"],"env":{"HOSTILE_SETTING":"on"}}}}"#
        try FileManager.default.createDirectory(atPath: sandbox.directory + "/config/ps-tools", withIntermediateDirectories: true)
        try config.write(toFile: sandbox.directory + "/config/ps-tools/mcp.json", atomically: true, encoding: .utf8)
        let run = try sandbox.shell("ps-send --model ps-demo --mcp hostile 'call:environment' | ps-sse | ps-parts --final",
                                    env: ["SOME_SECRET_SETTING": "x"])
        #expect(run.status == 0, "\(run.stderrText)")
        let names = (try Self.parts(run.stdoutText).compactMap { $0["output"] as? String }.first ?? "").split(separator: " ").map(String.init)
        #expect(names.contains("HOSTILE_SETTING") && names.contains("PATH"), "\(names)")
        #expect(!names.contains { $0.hasPrefix("PAGESPACE") || $0 == "SOME_SECRET_SETTING" || $0.hasPrefix("XDG") }, "\(names)")
    }

    /// A server that dies mid-call: an error result saying so, with its last words.
    @Test func aServerThatDiesMidCall() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try ClientToolTests.sandbox(server)
        let run = try sandbox.shell("ps-send --model ps-demo --mcp '\(Self.hostile)' 'call:die' | ps-sse | ps-parts --final")
        #expect(run.status == 0, "\(run.stderrText)")
        let errors = try Self.parts(run.stdoutText).compactMap { $0["errorText"] as? String }
        #expect(errors.first?.contains("the MCP server exited (status 3): hostile: dying now") == true, "\(errors)")
        #expect(run.stderrText.contains("ps-send: warning: tool die ("), "\(run.stderrText)")
    }

    /// A secret in an MCP result: refused (exit 2, naming the tool), or redacted.
    @Test func aSecretInAResult() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try ClientToolTests.sandbox(server)
        let refused = try sandbox.run("ps-send", ["--model", "ps-demo", "--mcp", Self.hostile, "call:leak"])
        #expect(refused.status == 2 && refused.stderrText.contains("the output of tool leak line 1 holds what looks like a secret (github-token)"),
                "\(refused.stderrText)")
        let redacted = try sandbox.run("ps-send", ["--model", "ps-demo", "--redact", "--mcp", Self.hostile, "call:leak"])
        #expect(redacted.status == 0, "\(redacted.stderrText)")
        let told = (try ClientToolTests.completions(server).last?["messages"] as? [[String: Any]] ?? []).last?["content"] as? String
        #expect(told == "the deploy key is [REDACTED:github-token]", "\(told ?? "")")
    }

    /// Streamable HTTP: the tests' own server on loopback, answering in JSON (the SDK reads no
    /// event stream on Linux).
    @Test func aServerOverStreamableHTTP() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try ClientToolTests.sandbox(server)
        let port = try FreePort.take()
        let script = Executables.packageRoot.appendingPathComponent("Tests/CommandTests/MCP/hostile_mcp_server.py").path
        let http = try ChildProcess.spawn("\(Self.venv)/python", [script, "--http", String(port)])
        defer {
            http.signalGroup(SIGKILL)
            _ = http.wait()
        }
        try #require(try Run.waitForHTTP("http://127.0.0.1:\(port)/mcp", timeout: 10), "the MCP server did not listen")
        let run = try sandbox.shell(
            "ps-send --model ps-demo --mcp http://127.0.0.1:\(port)/mcp 'call:echo{\"text\":\"over http\"}' | ps-sse | ps-parts --final")
        #expect(run.status == 0, "\(run.stderrText)")
        #expect(try Self.parts(run.stdoutText).contains { $0["output"] as? String == "echo: over http" }, "\(run.stdoutText)")
    }

    /// Without ps-mcp beside ps-send (nor in ../lib/ps-tools), --mcp is exit 2 naming the package.
    @Test func withoutTheHelperMcpIsAUsageError() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try ClientToolTests.sandbox(server)
        let bin = sandbox.directory + "/bin"
        // Copied by a child process, so that no process forked meanwhile holds it open (ETXTBSY).
        let copied = try Run.shell("mkdir -p '\(bin)' && cp '\(Executables.url("ps-send").path)' '\(bin)/ps-send'")
        try #require(copied.status == 0, "\(copied.stderrText)")
        try Executables.linkSharedLibrary(into: URL(fileURLWithPath: bin))
        let run = try Run.command(bin + "/ps-send", ["--model", "ps-demo", "--mcp", "x", "hi"], environment: sandbox.environment)
        #expect(run.status == 2, "\(run.stderrText)")
        #expect(run.stderrText.contains("--mcp needs ps-mcp, which the package ps-tools-server provides"), "\(run.stderrText)")
        #expect(try ClientToolTests.completions(server).isEmpty)
    }
}
