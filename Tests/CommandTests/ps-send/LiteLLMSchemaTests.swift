import Foundation
import Testing
import TestSupport

/// `ps-send --schema` through a real OpenAI-compatible proxy, LiteLLM's (`pip install
/// 'litellm[proxy]'`), in front of the local server's openai dialect: the proxy passes
/// `response_format` json_schema on, on the first send and on the repair; its refusal of a model it
/// does not route names the models it lists. scripts/setup --test installs
/// LiteLLM into the build's venv (.build/mcp-venv, beside the MCP servers); PS_TEST_LITELLM
/// may name another `litellm` command.
@Suite struct LiteLLMSchemaTests {
    static let binary: String? = {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["PS_TEST_LITELLM"], FileManager.default.isExecutableFile(atPath: path) { return path }
        if FileManager.default.isExecutableFile(atPath: McpToolTests.venv + "/litellm") { return McpToolTests.venv + "/litellm" }
        return (environment["PATH"] ?? "").split(separator: ":").map { $0 + "/litellm" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let masterKey = "sk-ps-tools-test"

    static let enabled: ConditionTrait = .enabled(
        if: binary != nil, "LiteLLM's proxy is not installed (pip install 'litellm[proxy]'; PS_TEST_LITELLM=path/to/litellm)")

    /// LiteLLM's proxy in front of `server`, routing the model ps-demo to it: the proxy and its
    /// URL, once it answers.
    static func startProxy(_ sandbox: NetworkSandbox, server: LocalServer) throws -> (ChildProcess, String) {
        let port = try FreePort.take()
        let config = """
            model_list:
              - model_name: ps-demo
                litellm_params:
                  model: openai/ps-demo
                  api_base: \(server.baseURL)
                  api_key: none
            """
        try config.write(toFile: sandbox.directory + "/litellm.yaml", atomically: true, encoding: .utf8)
        let log = sandbox.directory + "/litellm.log"
        let proxy = try ChildProcess.spawn("/bin/bash", ["-c", "exec \"$0\" --config \"$1\" --host 127.0.0.1 --port \"$2\" >\"$3\" 2>&1",
                                                         Self.binary!, sandbox.directory + "/litellm.yaml", String(port), log],
                                           environment: ["LITELLM_MASTER_KEY": Self.masterKey, "LITELLM_LOCAL_MODEL_COST_MAP": "True",
                                                         "HOME": sandbox.directory])
        let url = "http://127.0.0.1:\(port)"
        let deadline = Date().addingTimeInterval(180)
        var ready = false
        while !ready && Date() < deadline && proxy.isRunning {
            let probe = try Run.command("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", url + "/health/liveliness"])
            ready = probe.stdoutText == "200"
            if !ready { usleep(500_000) }
        }
        guard ready else {
            proxy.signalGroup(SIGKILL)
            _ = proxy.wait()
            throw LocalServerError("LiteLLM did not start: \((try? String(contentsOfFile: log, encoding: .utf8))?.suffix(2000) ?? "")")
        }
        return (proxy, url)
    }

    @Test(enabled, .timeLimit(.minutes(4)))
    func responseFormatGoesThroughLiteLLMAndTheRepairToo() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let (proxy, url) = try Self.startProxy(sandbox, server: server)
        defer {
            proxy.signalGroup(SIGKILL)
            _ = proxy.wait()
        }

        let schema = TemplateAndSchemaTests.schema
        let run = try sandbox.shell("ps-send --model ps-demo --schema '\(schema)' 'Plan a trip, wrong json' "
            + "| ps-sse | ps-parts | ps-render --format text | jq -c .",
            env: ["PAGESPACE_API_URL": url + "/v1", "PAGESPACE_API_KIND": "openai", "PAGESPACE_TOKEN": Self.masterKey])
        #expect(run.status == 0, "\(run.stderrText)")
        #expect(run.stdoutText == #"{"city":"example","days":2}"# + "\n")
        let sends = try TemplateAndSchemaTests.chatSends(server)
        #expect(sends.count == 2)
        for body in sends {
            let format = body["response_format"] as? [String: Any]
            #expect(format?["type"] as? String == "json_schema")
            #expect(((format?["json_schema"] as? [String: Any])?["schema"] as? [String: Any])?["required"] as? [String] == ["city", "days"])
        }
    }

    /// LiteLLM refuses a model it does not route with a 400 ("Invalid model name passed in
    /// model=…"): the refusal names the models the proxy lists.
    @Test(enabled, .timeLimit(.minutes(4)))
    func anUnknownModelThroughLiteLLMNamesTheModelsItLists() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let (proxy, url) = try Self.startProxy(sandbox, server: server)
        defer {
            proxy.signalGroup(SIGKILL)
            _ = proxy.wait()
        }
        let run = try sandbox.run("ps-send", ["--model", "llama3.2", "hi"],
            env: ["PAGESPACE_API_URL": url + "/v1", "PAGESPACE_API_KIND": "openai", "PAGESPACE_TOKEN": Self.masterKey])
        #expect(run.status == 6, "\(run.stderrText)")
        #expect(run.stderrText.contains("llama3.2"), "\(run.stderrText)")
        #expect(run.stderrText.hasSuffix("; the server lists ps-demo (see ps-models)\n"), "\(run.stderrText)")
    }
}
