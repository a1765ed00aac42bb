import Foundation
import Testing
import TestSupport

/// `ps-send --schema` through a real OpenAI-compatible proxy, LiteLLM's (`pip install
/// 'litellm[proxy]'`), in front of the local server's openai dialect: the proxy passes
/// `response_format` json_schema on, on the first send and on the repair. scripts/setup --test installs
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

    @Test(.enabled(if: binary != nil, "LiteLLM's proxy is not installed (pip install 'litellm[proxy]'; PS_TEST_LITELLM=path/to/litellm)"),
          .timeLimit(.minutes(4)))
    func responseFormatGoesThroughLiteLLMAndTheRepairToo() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let port = try FreePort.take()
        let config = """
            model_list:
              - model_name: ps-demo
                litellm_params:
                  model: openai/ps-demo
                  api_base: \(server.baseURL)/v1
                  api_key: none
            """
        try config.write(toFile: sandbox.directory + "/litellm.yaml", atomically: true, encoding: .utf8)
        let log = sandbox.directory + "/litellm.log"
        let proxy = try ChildProcess.spawn("/bin/bash", ["-c", "exec \"$0\" --config \"$1\" --host 127.0.0.1 --port \"$2\" >\"$3\" 2>&1",
                                                         Self.binary!, sandbox.directory + "/litellm.yaml", String(port), log],
                                           environment: ["LITELLM_MASTER_KEY": Self.masterKey, "LITELLM_LOCAL_MODEL_COST_MAP": "True",
                                                         "HOME": sandbox.directory])
        defer {
            proxy.signalGroup(SIGKILL)
            _ = proxy.wait()
        }
        let url = "http://127.0.0.1:\(port)"
        let deadline = Date().addingTimeInterval(180)
        var ready = false
        while !ready && Date() < deadline && proxy.isRunning {
            let probe = try Run.command("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", url + "/health/liveliness"])
            ready = probe.stdoutText == "200"
            if !ready { usleep(500_000) }
        }
        try #require(ready, "LiteLLM did not start: \((try? String(contentsOfFile: log, encoding: .utf8))?.suffix(2000) ?? "")")

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
}
