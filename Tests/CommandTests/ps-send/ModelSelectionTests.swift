import Foundation
import Testing
import TestSupport

/// --provider and --model against today's server's rules (global-chat-turn.ts, page-chat-turn.ts):
/// a free user's paid model is refused, an unknown pair runs the default, a pair given whole is
/// stored as the user's default (and with --page the agent's), a model alone is not; and the
/// credit gate's refusals before anything is stored.
@Suite struct ModelSelectionTests {
    static let session = ["Authorization": "Bearer \(LocalServer.sessionToken)"]
    static let paid = "openai/gpt-5.6-sol"

    static func selection(_ server: LocalServer) throws -> [String] {
        let settings = try server.request("GET", "/api/ai/settings", headers: session).jsonObject()
        return [settings["currentProvider"] as? String ?? "", settings["currentModel"] as? String ?? ""]
    }

    static func agentModel(_ server: LocalServer) throws -> [String] {
        let config = try server.request("GET", "/api/pages/page_agent_demo/agent-config", headers: session).jsonObject()
        return [config["aiProvider"] as? String ?? "", config["aiModel"] as? String ?? ""]
    }

    static func globalMessageCount(_ server: LocalServer) throws -> Int {
        let reply = try server.request(
            "GET", "/api/ai/global/\(LocalServer.globalConversationID)/messages?limit=100", headers: session)
        return (try reply.jsonObject()["messages"] as? [Any])?.count ?? -1
    }

    @Test func aFreeUserAskingForAPaidModelIsRefusedInItsOwnWords() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let before = try Self.selection(server)
        for extra in [[], ["--page", "page_agent_demo"]] {
            let refused = try sandbox.run("ps-send", extra + ["--provider", "openai", "--model", Self.paid, "hello"])
            #expect(refused.status == 5, "\(refused.stderrText)")
            #expect(refused.stderrText.hasPrefix("ps-send: the model needs a paid plan: Subscription required: "),
                    "\(refused.stderrText)")
            #expect(refused.stderrText.split(separator: "\n").count == 1)
        }
        // A refused pair is not stored.
        #expect(try Self.selection(server) == before)
        // Page AI judges a model sent alone; the Global assistant ignores it and runs the stored pair.
        let pageModelAlone = try sandbox.run("ps-send", ["--page", "page_agent_demo", "--model", Self.paid, "hello"])
        #expect(pageModelAlone.status == 5, "\(pageModelAlone.stderrText)")
        let globalModelAlone = try sandbox.run("ps-send", ["--model", Self.paid, "hello"])
        #expect(globalModelAlone.status == 0, "\(globalModelAlone.stderrText)")
        #expect(try Self.selection(server) == before)
    }

    @Test func aPairGivenWholeIsStoredForTheUserAndTheAgentEvenOneTheServerReplaces() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet", "--subscription-tier", "pro"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let page = try sandbox.run("ps-send", ["--page", "page_agent_demo", "--provider", "openai", "--model", Self.paid, "hello"])
        #expect(page.status == 0, "\(page.stderrText)")
        #expect(try Self.selection(server) == ["openai", Self.paid])
        #expect(try Self.agentModel(server) == ["openai", Self.paid])
        // An unknown pair runs the default. It is stored as sent, and the settings show it
        // as resolveProviderModel resolves it: the default (settings/route.ts:54-59).
        let unknown = try sandbox.run("ps-send", ["--provider", "openai", "--model", "no-such-model", "hello"])
        #expect(unknown.status == 0, "\(unknown.stderrText)")
        let defaults = try server.request("GET", "/api/ai/models").jsonObject()
        let defaultPair = [defaults["defaultProvider"] as? String ?? "", defaults["defaultModel"] as? String ?? ""]
        #expect(try Self.selection(server) == defaultPair)
        #expect(try Self.agentModel(server) == ["openai", Self.paid])

        // On the free plan that stored pair falls back to the default, a free model, on Global.
        let free = try LocalServer.start(extraArguments: ["--quiet"])
        defer { free.stop() }
        let freeSandbox = try NetworkSandbox(server: free)
        let replaced = try freeSandbox.run("ps-send", ["--provider", "openai", "--model", "no-such-model", "hello"])
        #expect(replaced.status == 0, "\(replaced.stderrText)")
        #expect(try Self.selection(free) == defaultPair)
    }

    @Test func theCreditGateRefusesBeforeAnythingIsStored() throws {
        let cases: [(gate: String, words: String)] = [
            ("out_of_credits", "ps-send: out of credits: Your credit balance is too low."),
            ("too_many_in_flight", "ps-send: rate limited: too_many_in_flight: Too many AI requests in flight at once."),
            ("daily_cap_exceeded", "ps-send: rate limited: daily_cap_exceeded: You've reached your daily AI usage limit."),
        ]
        for (gate, words) in cases {
            let server = try LocalServer.start(extraArguments: ["--quiet", "--credit-gate", gate])
            defer { server.stop() }
            let sandbox = try NetworkSandbox(server: server)
            let before = try Self.globalMessageCount(server)
            for extra in [[], ["--page", "page_agent_demo"]] {
                let refused = try sandbox.run("ps-send", extra + ["hello"])
                #expect(refused.status == 7, "\(gate): \(refused.stderrText)")
                #expect(refused.stderrText.hasPrefix(words), "\(gate): \(refused.stderrText)")
                #expect(refused.stdoutText.isEmpty)
            }
            #expect(try Self.globalMessageCount(server) == before)
        }
    }
}
