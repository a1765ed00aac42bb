import Foundation
import Testing
import TestSupport

/// The gates of PageSpace's routes that run an agent as it is configured: the OpenAI-compatible
/// `/api/v1/chat/completions` (route.ts:204-257) and consult (consult/route.ts:265-293) take
/// the credit gate, as the chat routes do, but no subscription gate: a free user's key runs an
/// agent set to a paid model.
@Suite struct AgentAPIGateTests {
    static let mcp = ["Authorization": "Bearer \(LocalServer.mcpKey)"]

    @Test func theAgentAPIHasTheCreditGateAndNoSubscriptionGate() throws {
        let cases: [(gate: String, status: Int, words: String)] = [
            ("out_of_credits", 402, "ps-send: out of credits: Your credit balance is too low."),
            ("too_many_in_flight", 429, "ps-send: rate limited: too_many_in_flight: Too many AI requests in flight at once."),
        ]
        for (gate, status, words) in cases {
            let server = try LocalServer.start(extraArguments: ["--quiet", "--credit-gate", gate])
            defer { server.stop() }
            let completion = try server.request(
                "POST", "/api/v1/chat/completions", headers: Self.mcp,
                body: #"{"model":"\#(PageSpaceOpenAIVariantTests.agentModel)","messages":[{"role":"user","content":"hi"}]}"#)
            #expect(completion.status == status, "\(gate): \(completion.text)")
            #expect(try completion.jsonObject()["error"] as? String == gate)
            let consult = try server.request(
                "POST", "/api/ai/page-agents/consult", headers: Self.mcp, body: #"{"agentId":"page_agent_demo","question":"Hi?"}"#)
            #expect(consult.status == status, "\(gate): \(consult.text)")
            #expect(try consult.jsonObject()["error"] as? String == gate)

            let sandbox = try PageSpaceOpenAIVariantTests.loggedIn(server, model: PageSpaceOpenAIVariantTests.agentModel)
            let refused = try sandbox.run("ps-send", ["hello"])
            #expect(refused.status == 7, "\(gate): \(refused.stderrText)")
            #expect(refused.stderrText.hasPrefix(words), "\(gate): \(refused.stderrText)")
            #expect(refused.stdoutText.isEmpty)
        }

        // The free demo user's key runs the agent set to a paid model (the chat routes refuse
        // that model to the same user: ModelSelectionTests).
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let set = try server.request(
            "PATCH", "/api/pages/page_agent_demo/agent-config", headers: Self.mcp,
            body: #"{"aiProvider":"openai","aiModel":"\#(ModelSelectionTests.paid)"}"#)
        #expect(set.status == 200, "\(set.text)")
        let sandbox = try PageSpaceOpenAIVariantTests.loggedIn(server, model: PageSpaceOpenAIVariantTests.agentModel)
        let sent = try sandbox.shell("ps-send 'hello' | ps-sse | ps-parts --final")
        #expect(sent.status == 0, "\(sent.stderrText)")
    }
}
