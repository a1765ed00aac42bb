import Foundation
import Testing
import TestSupport

/// `ps-models --provider ollama|lmstudio` (the deployment's own model servers, as PageSpace's
/// GET /api/ai/ollama/models and /api/ai/lmstudio/models report them) and `ps-settings
/// --subscription` (GET /api/subscriptions/status), against the local server in each of its
/// `--local-models` states, with a session token and with an MCP key.
@Suite struct LocalModelsAndSubscriptionTests {
    static let session = ["Authorization": "Bearer \(LocalServer.sessionToken)"]
    static let mcp = ["Authorization": "Bearer \(LocalServer.mcpKey)"]

    static func mcpSandbox(_ server: LocalServer) throws -> NetworkSandbox {
        try NetworkSandbox(extra: [
            "PAGESPACE_TOKEN": LocalServer.mcpKey, "PAGESPACE_API_URL": server.baseURL, "PAGESPACE_API_KIND": "pagespace",
        ])
    }

    /// The route's `models` object as [id, name] pairs, in its order.
    static func routeModels(_ server: LocalServer, _ provider: String) throws -> [[String]] {
        let reply = try server.request("GET", "/api/ai/\(provider)/models", headers: session)
        #expect(reply.status == 200)
        // JSONSerialization loses the order of keys: read the pairs from the text.
        let object = try reply.jsonObject()
        let models = try #require(object["models"] as? [String: String])
        func position(_ id: String) -> String.Index { reply.text.range(of: "\"\(id)\":")?.lowerBound ?? reply.text.endIndex }
        return models.keys.sorted { position($0) < position($1) }.map { [$0, models[$0] ?? ""] }
    }

    // MARK: local model servers

    @Test func theModelsOfAReachableOllamaAndLMStudioAreTheServersInItsOrder() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        for provider in ["ollama", "lmstudio"] {
            let listed = try sandbox.run("ps-models", ["--provider", provider])
            #expect(listed.status == 0, "\(listed.stderrText)")
            #expect(listed.stderrText.isEmpty)
            let records = try Records.parse(listed.stdoutText)
            let expected = try Self.routeModels(server, provider)
            try #require(expected.count > 2)
            #expect(records.map { [$0["id"] as? String ?? "", $0["name"] as? String ?? ""] } == expected)
            #expect(records.allSatisfy { $0["ownedBy"] as? String == provider && $0["fallback"] == nil })
        }
        // The route's display names: ":latest" dropped, colons to spaces, first letter up (Ollama);
        // "_" and "-" to spaces, every word's first letter up (LM Studio).
        #expect(try Self.routeModels(server, "ollama").first == ["llama3.2:latest", "Llama3.2"])
        #expect(try Self.routeModels(server, "lmstudio").first == ["qwen2.5-7b-instruct", "Qwen2.5 7b Instruct"])
        let answer = try server.request("GET", "/api/ai/ollama/models", headers: Self.session).jsonObject()
        #expect(answer["success"] as? Bool == true && answer["baseUrl"] as? String == "http://localhost:11434")
        #expect(answer["modelCount"] as? Int == 3)
        let requests = try server.requestLog().compactMap { $0["path"] as? String }
        #expect(requests.contains("/api/ai/ollama/models") && requests.contains("/api/ai/lmstudio/models"))
        // Both are offered in the AI settings, but a free-tier user may choose only the free
        // models, whatever the provider (apps/web/src/app/api/ai/settings/route.ts:157-166).
        let changed = try sandbox.run("ps-settings", ["--set", "provider=lmstudio", "--set", "model=qwen2.5-7b-instruct"])
        #expect(changed.status == 5, "\(changed.stderrText)")
    }

    @Test func anUnreachableOllamaGivesTheFallbackListMarkedAndLMStudioNothing() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet", "--local-models", "unreachable"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let ollama = try sandbox.run("ps-models", ["--provider", "ollama"])
        #expect(ollama.status == 0, "\(ollama.stderrText)")
        let lines = ollama.stderrText.split(separator: "\n")
        #expect(lines.count == 1, "\(ollama.stderrText)")
        #expect(ollama.stderrText.contains("warning: Could not connect to Ollama at http://localhost:11434. Using fallback models."))
        let records = try Records.parse(ollama.stdoutText)
        try #require(records.count > 1)
        #expect(records.allSatisfy { $0["fallback"] as? Bool == true })
        #expect(records.map { [$0["id"] as? String ?? "", $0["name"] as? String ?? ""] } == (try Self.routeModels(server, "ollama")))
        #expect(records[0]["id"] as? String == "llama3.2:latest" && records[0]["name"] as? String == "Llama 3.2")
        let route = try server.request("GET", "/api/ai/ollama/models", headers: Self.session)
        #expect(route.status == 200)
        #expect(try route.jsonObject()["isFallback"] as? Bool == true && route.jsonObject()["success"] as? Bool == false)

        let lmstudio = try sandbox.run("ps-models", ["--provider", "lmstudio"])
        #expect(lmstudio.status == 9)
        #expect(lmstudio.stdoutText.isEmpty)
        #expect(lmstudio.stderrText.contains(
            "Could not connect to LM Studio at http://localhost:1234/v1. Please ensure LM Studio server is running."),
            "\(lmstudio.stderrText)")
        #expect(lmstudio.stderrText.split(separator: "\n").count == 1)
        let empty = try server.request("GET", "/api/ai/lmstudio/models", headers: Self.session)
        #expect(empty.status == 200)
        #expect((try empty.jsonObject()["models"] as? [String: Any])?.isEmpty == true)
    }

    @Test func aDeploymentWithoutThemRefusesAtOnceAndDoesNotOfferThem() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet", "--local-models", "unconfigured"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        for (provider, name) in [("ollama", "Ollama"), ("lmstudio", "LM Studio")] {
            let refused = try sandbox.run("ps-models", ["--provider", provider])
            #expect(refused.status == 2)
            #expect(refused.stderrText == "ps-models: the server has no \(name): \(name) is not configured on this deployment.\n")
            let reply = try server.request("GET", "/api/ai/\(provider)/models", headers: Self.session)
            #expect(reply.status == 503)
            #expect(try reply.jsonObject()["success"] as? Bool == false)
        }
        // A 503 that says the deployment lacks the server is not retried.
        #expect(try server.requestLog().filter { $0["path"] as? String == "/api/ai/ollama/models" }.count == 2)
        let settings = try Records.parse(try sandbox.run("ps-settings", []).stdoutText)
        let providers = try #require(settings.first?["providers"] as? [String: [String: Any]])
        #expect(providers["ollama"]?["isAvailable"] as? Bool == false && providers["lmstudio"]?["isAvailable"] as? Bool == false)
    }

    /// authenticateSessionRequest: a session only. An MCP key is named and refused, an OAuth
    /// token is no format it knows, no credential is the middleware's plain-text 401.
    @Test func onlyABrowserSessionListsThem() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let refused = try Self.mcpSandbox(server).run("ps-models", ["--provider", "ollama"])
        #expect(refused.status == 4)
        #expect(refused.stderrText.contains("an MCP key cannot list Ollama's models"), "\(refused.stderrText)")
        #expect(!refused.stderrText.contains(LocalServer.mcpKey))
        for provider in ["ollama", "lmstudio"] {
            let mcp = try server.request("GET", "/api/ai/\(provider)/models", headers: Self.mcp)
            #expect(mcp.status == 401)
            #expect(try mcp.jsonObject()["error"] as? String == "MCP tokens are not permitted for this endpoint")
            let oauth = try server.request("GET", "/api/ai/\(provider)/models", headers: ["Authorization": "Bearer ps_at_nonesuch"])
            #expect(oauth.status == 401)
            #expect(try oauth.jsonObject()["error"] as? String == "Invalid token format")
            let anonymous = try server.request("GET", "/api/ai/\(provider)/models")
            #expect(anonymous.status == 401 && anonymous.text == "Authentication required")
        }
        // Other APIs have no such list.
        let openai = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { openai.stop() }
        let other = try NetworkSandbox(extra: ["PAGESPACE_API_URL": openai.baseURL, "PAGESPACE_API_KIND": "openai"])
        let cannot = try other.run("ps-models", ["--provider", "ollama"])
        #expect(cannot.status == 2)
        #expect(cannot.stderrText.contains("the openai API cannot list Ollama's models"), "\(cannot.stderrText)")
        #expect(try other.run("ps-models", ["--provider", "llamafile"]).status == 2)
    }

    // MARK: subscription

    @Test func theSubscriptionIsTheServersRecordAndReadableOnATerminal() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let shown = try sandbox.run("ps-settings", ["--subscription"])
        #expect(shown.status == 0, "\(shown.stderrText)")
        let records = try Records.parse(shown.stdoutText)
        try #require(records.count == 1)
        let route = try server.request("GET", "/api/subscriptions/status", headers: Self.session).jsonObject()
        #expect(NSDictionary(dictionary: records[0]).isEqual(to: route))
        #expect(records[0]["subscriptionTier"] as? String == "free")
        #expect(records[0]["subscription"] is NSNull && records[0]["stripeCustomerId"] is NSNull)
        let storage = try #require(records[0]["storage"] as? [String: Any])
        #expect(storage["quota"] as? Int == 500 * 1024 * 1024 && storage["tier"] as? String == "free")
        let used = try #require(storage["used"] as? Int)

        // On a terminal: a few lines (script(1) gives the command one).
        let terminal = try sandbox.shell("script -qec 'ps-settings --subscription' /dev/null")
        #expect(terminal.status == 0, "\(terminal.stderrText)")
        let lines = terminal.stdoutText.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
        #expect(lines == ["plan: free", "subscription: none", "storage: \(used / 1024 / 1024) MB of 500 MB used (free tier)"],
                "\(terminal.stdoutText)")
        let json = try sandbox.shell("script -qec 'ps-settings --subscription --json' /dev/null")
        #expect(json.stdoutText.hasPrefix("{\"subscriptionTier\":\"free\""), "\(json.stdoutText)")

        let alone = try sandbox.run("ps-settings", ["--subscription", "--set", "model=glm-4.6"])
        #expect(alone.status == 2)
        #expect(alone.stdoutText.isEmpty)
    }

    /// requireAuth: anything but a valid session is a plain-text 401 "Unauthorized".
    @Test func onlyABrowserSessionSeesTheSubscription() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let refused = try Self.mcpSandbox(server).run("ps-settings", ["--subscription"])
        #expect(refused.status == 4)
        #expect(refused.stderrText.contains("an MCP key cannot show the subscription"), "\(refused.stderrText)")
        #expect(refused.stdoutText.isEmpty)
        for token in [LocalServer.mcpKey, "ps_at_nonesuch", "ps_sess_nonesuch"] {
            let reply = try server.request("GET", "/api/subscriptions/status", headers: ["Authorization": "Bearer \(token)"])
            #expect(reply.status == 401)
            #expect(reply.text == "Unauthorized" && reply.headers["content-type"]?.hasPrefix("text/plain") == true)
        }
        let anonymous = try server.request("GET", "/api/subscriptions/status")
        #expect(anonymous.status == 401 && anonymous.text == "Authentication required")

        let legacy = try LocalServer.start(dialect: "pagespace-legacy", extraArguments: ["--quiet"])
        defer { legacy.stop() }
        let legacySandbox = try NetworkSandbox()
        #expect(try legacySandbox.login(legacy).status == 0)
        let cannot = try legacySandbox.run("ps-settings", ["--subscription"])
        #expect(cannot.status == 2)
        #expect(cannot.stderrText.contains("cannot show the subscription"), "\(cannot.stderrText)")
    }
}
