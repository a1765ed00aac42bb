import Foundation
import Testing
import TestSupport

/// `ps-send --tool` through a real OpenAI-compatible proxy, LiteLLM (from PyPI, in the venv
/// scripts/setup --test makes), in front of the local server's openai dialect: the tools offered, the
/// calls and the results pass through it as a client's would.
@Suite struct LiteLLMToolTests {
    static let key = "sk-litellm-test-key"

    @Test func severalCallsAChainTheStepLimitAndADeniedToolThroughLiteLLM() throws {
        let twin = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { twin.stop() }
        let sandbox = try NetworkSandbox()
        let port = try FreePort.take()
        let config = sandbox.directory + "/litellm.yaml"
        try """
            model_list:
              - model_name: ps-demo
                litellm_params:
                  model: openai/ps-demo
                  api_base: \(twin.baseURL)
                  api_key: none

            """.write(toFile: config, atomically: true, encoding: .utf8)
        // Its log into a file: a pipe nobody reads would stop it once full.
        let proxy = try ChildProcess.spawn(
            "/bin/sh", ["-c", "exec \"$0\" --config \"$1\" --port \"$2\" --host 127.0.0.1 >\"$1.log\" 2>&1",
                        McpToolTests.venv + "/litellm", config, String(port)],
            environment: ["LITELLM_MASTER_KEY": Self.key, "HOME": sandbox.directory])
        defer {
            proxy.signalGroup(SIGKILL)
            _ = proxy.wait()
        }
        try #require(try Run.waitForHTTP("http://127.0.0.1:\(port)/health/liveliness", successOnly: true),
                     "LiteLLM did not start (scripts/setup --test installs it)")
        var through = sandbox
        through.environment["PAGESPACE_API_URL"] = "http://127.0.0.1:\(port)/v1"
        through.environment["PAGESPACE_API_KIND"] = "openai"
        through.environment["PAGESPACE_TOKEN"] = Self.key
        let upper = try ClientToolTests.tool(through, "upper", "tr a-z A-Z")
        let echo = try ClientToolTests.tool(through, "echo", "cat")

        let run = try through.shell(
            "ps-send --model ps-demo --tool '\(upper)' --tool '\(echo)' 'call:upper{\"a\":\"x\"} call:echo{\"b\":\"y\"} then call:upper{\"c\":\"z\"}'"
                + " > '\(through.directory)/out.sse' && ps-sse '\(through.directory)/out.sse' | ps-parts --final")
        #expect(run.status == 0, "\(run.stderrText)")
        let parts = ClientToolTests.parts(try Records.parse(run.stdoutText).last)
        #expect(parts.filter { $0["state"] as? String == "output-available" }.compactMap { $0["output"] as? String }
                == ["{\"A\":\"X\"}", "{\"b\":\"y\"}", "{\"C\":\"Z\"}"], "\(parts)")
        let answer = parts.last { $0["type"] as? String == "text" }?["text"] as? String ?? ""
        #expect(answer.contains("- echo: {\"b\":\"y\"}") && answer.contains("- upper: {\"C\":\"Z\"}"), "\(answer)")
        // What reached the model behind the proxy: the tools, then the results.
        let sent = try ClientToolTests.completions(twin)
        #expect(sent.count == 3)
        #expect((sent.first?["tools"] as? [Any])?.count == 2, "\(sent.first ?? [:])")
        let roles = (sent.last?["messages"] as? [[String: Any]] ?? []).compactMap { $0["role"] as? String }
        #expect(roles == ["user", "assistant", "tool", "tool", "assistant", "tool"], "\(roles)")
        let shown = try through.shell("ps-sse '\(through.directory)/out.sse' | ps-parts | ps-render --format plain --tools compact --width 100")
        #expect(shown.status == 0 && shown.stdoutText.contains("upper") && shown.stdoutText.contains("Tool results"), "\(shown.stdoutText)")

        let limited = try through.run("ps-send", ["--model", "ps-demo", "--max-tool-steps", "1", "--tool", upper, "call:upper then call:upper"])
        #expect(limited.status == 10 && limited.stderrText.contains("(--max-tool-steps 1)"), "\(limited.stderrText)")
        let denied = try through.run("ps-send", ["--model", "ps-demo", "--tool", upper, "--tool", echo, "--deny-tool", "upper", "call:upper"])
        #expect(denied.status == 10 && denied.stderrText.contains("asks for the tool upper, which was not offered (offered: echo)"),
                "\(denied.stderrText)")
    }
}
