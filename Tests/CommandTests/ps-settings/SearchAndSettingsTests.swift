import Foundation
import Testing
import TestSupport

/// ps-settings, ps-models and ps-search on the current PageSpace API (GET|PATCH /api/ai/settings,
/// the public GET /api/ai/models, GET /api/search), with a session token and with an MCP key,
/// and ps-search over an export with no server at all.
@Suite struct SearchAndSettingsTests {
    static func mcpSandbox(_ server: LocalServer) throws -> NetworkSandbox {
        try NetworkSandbox(extra: [
            "PAGESPACE_TOKEN": LocalServer.mcpKey, "PAGESPACE_API_URL": server.baseURL, "PAGESPACE_API_KIND": "pagespace",
        ])
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try Records.parse(text).first)
    }

    // MARK: settings

    @Test func aSessionShowsTheSettingsAndAChangeIsSeenLater() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let shown = try sandbox.run("ps-settings", [])
        #expect(shown.status == 0, "\(shown.stderrText)")
        let settings = try Self.object(shown.stdoutText)
        // Today's default pair (packages/lib/src/ai/model-defaults.ts:6-7) and the 19 providers
        // of ALL_PROVIDER_NAMES (apps/web/src/lib/ai/core/ai-utils.ts:62-85).
        #expect(settings["currentProvider"] as? String == "openai")
        #expect(settings["currentModel"] as? String == "openai/gpt-5.6-luna")
        #expect(settings["userSubscriptionTier"] as? String == "free")
        let providers = try #require(settings["providers"] as? [String: [String: Any]])
        #expect(providers.count == 19)
        #expect(providers["google"]?["isAvailable"] as? Bool == true)
        #expect(providers["azure_openai"]?["isAvailable"] as? Bool == false)
        #expect(providers["pagespace"] == nil)

        // A model alone keeps the provider; the answer is the settings after the change.
        let model = try sandbox.run("ps-settings", ["--set", "model=openai/gpt-5.4-mini"])
        #expect(model.status == 0, "\(model.stderrText)")
        #expect(try Self.object(model.stdoutText)["currentModel"] as? String == "openai/gpt-5.4-mini")
        let both = try sandbox.run("ps-settings", ["--set", "provider=google", "--set", "model=google/gemini-2.5-flash"])
        #expect(both.status == 0, "\(both.stderrText)")
        let later = try Self.object(try sandbox.run("ps-settings", []).stdoutText)
        #expect(later["currentProvider"] as? String == "google")
        #expect(later["currentModel"] as? String == "google/gemini-2.5-flash")

        let patches = try server.requestLog().filter { $0["method"] as? String == "PATCH" && $0["path"] as? String == "/api/ai/settings" }
        #expect(patches.count == 2)
        let first = try #require(patches.first?["body"] as? [String: Any])
        #expect(first["provider"] as? String == "openai" && first["model"] as? String == "openai/gpt-5.4-mini")
    }

    @Test func aRefusedChangeIsTheServersWordsAndChangesNothing() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let unknown = try sandbox.run("ps-settings", ["--set", "provider=nonesuch", "--set", "model=x"])
        #expect(unknown.status == 2)
        // apps/web/src/app/api/ai/settings/route.ts:111-166, in its order.
        #expect(unknown.stderrText.contains("Invalid provider. Must be one of: openai, anthropic, google,"), "\(unknown.stderrText)")
        let legacy = try sandbox.run("ps-settings", ["--set", "provider=pagespace", "--set", "model=glm-4.5-air"])
        #expect(legacy.status == 2)
        let unconfigured = try sandbox.run("ps-settings", ["--set", "provider=azure_openai"])
        #expect(unconfigured.status == 2)
        #expect(unconfigured.stderrText.contains("Provider \"azure_openai\" is not configured on this deployment."))
        let badModel = try sandbox.run("ps-settings", ["--set", "model=gpt-4o"])
        #expect(badModel.status == 2)
        #expect(badModel.stderrText.contains("Model \"gpt-4o\" is not a valid model for provider \"openai\"."))
        let paid = try sandbox.run("ps-settings", ["--set", "provider=google", "--set", "model=google/gemini-2.5-pro"])
        #expect(paid.status == 5)
        #expect(paid.stderrText.contains("Subscription required"), "\(paid.stderrText)")
        // ADMIN_ONLY_PROVIDERS (ai-providers-config.ts:59): 403 Provider restricted.
        let admin = try sandbox.run("ps-settings", ["--set", "provider=glm", "--set", "model=glm-4.7"])
        #expect(admin.status == 5)
        #expect(admin.stderrText.contains("Provider restricted"), "\(admin.stderrText)")
        let key = try sandbox.run("ps-settings", ["--set", "apiKey=sk-secret"])
        #expect(key.status == 2)
        #expect(key.stderrText.contains("only provider and model"), "\(key.stderrText)")
        #expect(!key.stderrText.contains("sk-secret"))
        for result in [unknown, legacy, unconfigured, badModel, paid, admin, key] {
            #expect(result.stdoutText.isEmpty)
            #expect(result.stderrText.split(separator: "\n").count == 1, "\(result.stderrText)")
        }
        let after = try Self.object(try sandbox.run("ps-settings", []).stdoutText)
        #expect(after["currentProvider"] as? String == "openai")
        #expect(after["currentModel"] as? String == "openai/gpt-5.6-luna")
    }

    /// The late-2025 GET /api/ai/settings (apps/web/src/app/api/ai/settings/route.ts:76-119 at
    /// 458264c5b): nine providers, Ollama and LM Studio reporting a base URL rather than a key,
    /// the unset selection as pagespace / glm-4.5-air. The lists come from the source through
    /// scripts/model-catalog.py.
    @Test func theLegacySettingsReportEveryProviderOfTheRoute() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy")
        defer { server.stop() }
        let bearer = ["Authorization": "Bearer \(try server.legacyLogin().token)"]
        let shown = try server.request("GET", "/api/ai/settings", headers: bearer).jsonObject()
        #expect(shown["currentProvider"] as? String == "pagespace")
        #expect(shown["currentModel"] as? String == "glm-4.5-air")
        let providers = try #require(shown["providers"] as? [String: [String: Any]])
        #expect(Set(providers.keys) == ["pagespace", "openrouter", "google", "openai", "anthropic", "xai", "ollama", "lmstudio", "glm"])
        for local in ["ollama", "lmstudio"] {
            #expect(Set(providers[local]?.keys ?? [:].keys) == ["isConfigured", "hasBaseUrl"], "\(local)")
        }
        #expect(Set(providers["glm"]?.keys ?? [:].keys) == ["isConfigured", "hasApiKey"])
        #expect(providers["pagespace"]?["isConfigured"] as? Bool == true && providers["xai"]?["isConfigured"] as? Bool == false)

        // A base URL saved for Ollama shows as configured (route.ts:105-108).
        let saved = try server.request(
            "POST", "/api/ai/settings", headers: bearer.merging(["Content-Type": "application/json"]) { $1 },
            body: #"{"provider":"ollama","baseUrl":"http://127.0.0.1:11434"}"#)
        #expect(saved.status == 201, "\(saved.text)")
        #expect(try saved.jsonObject()["message"] as? String == "Ollama API key saved successfully")
        let later = try server.request("GET", "/api/ai/settings", headers: bearer).jsonObject()
        let ollama = (later["providers"] as? [String: [String: Any]])?["ollama"]
        #expect(ollama?["isConfigured"] as? Bool == true && ollama?["hasBaseUrl"] as? Bool == true)
        // The order is the route's: pagespace first, glm last.
        let raw = try server.request("GET", "/api/ai/settings", headers: bearer).text
        let order = ["pagespace", "openrouter", "google", "openai", "anthropic", "xai", "ollama", "lmstudio", "glm"]
            .compactMap { raw.range(of: "\"\($0)\":{")?.lowerBound }
        #expect(order.count == 9 && order == order.sorted())
    }

    @Test func theLegacyAPIChangesTheSelectionAndSavesAKeyReadFromStdin() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy")
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let shown = try Self.object(try sandbox.run("ps-settings", []).stdoutText)
        #expect(shown["currentProvider"] as? String == "pagespace")
        #expect(((shown["providers"] as? [String: [String: Any]])?["openai"]?["hasApiKey"]) as? Bool == false)

        let secret = "sk-test-\(UUID().uuidString)"
        let saved = try sandbox.run("ps-settings", ["--api-key-stdin", "openai"], stdin: secret + "\n")
        #expect(saved.status == 0, "\(saved.stderrText)")
        #expect(try Self.object(saved.stdoutText)["message"] as? String == "OpenAI API key saved successfully")
        let post = try #require(try server.requestLog().last { $0["method"] as? String == "POST" && $0["path"] as? String == "/api/ai/settings" })
        // The body held a key (the server refuses an empty one); its log keeps it redacted.
        #expect((post["body"] as? [String: Any])?["apiKey"] as? String == "<redacted>")
        #expect((post["body"] as? [String: Any])?["provider"] as? String == "openai")
        #expect(!server.stderrText.contains(secret))
        #expect(!saved.stdoutText.contains(secret) && !saved.stderrText.contains(secret))
        let changed = try sandbox.run("ps-settings", ["--set", "provider=openai", "--set", "model=gpt-4o"])
        #expect(changed.status == 0, "\(changed.stderrText)")
        let later = try Self.object(changed.stdoutText)
        #expect(later["currentProvider"] as? String == "openai" && later["currentModel"] as? String == "gpt-4o")
        #expect(((later["providers"] as? [String: [String: Any]])?["openai"]?["hasApiKey"]) as? Bool == true)

        let badProvider = try sandbox.run("ps-settings", ["--api-key-stdin", "nonesuch"], stdin: secret + "\n")
        #expect(badProvider.status == 2)
        #expect(badProvider.stderrText.contains("Invalid provider. Must be \"openrouter\""), "\(badProvider.stderrText)")
        let empty = try sandbox.run("ps-settings", ["--api-key-stdin", "openai"], stdin: "\n")
        #expect(empty.status == 2)

        // The current API retired per-user keys: no such capability there.
        let current = try LocalServer.start()
        defer { current.stop() }
        let retired = try NetworkSandbox(server: current).run("ps-settings", ["--api-key-stdin", "openai"], stdin: secret + "\n")
        #expect(retired.status == 2)
        #expect(retired.stderrText.contains("cannot save provider API keys"), "\(retired.stderrText)")
    }

    /// The legacy route keeps PageSpace's pro model (glm-4.6) for Pro and Business plans
    /// (settings/route.ts:264-274 at 458264c5b): a free user is refused, 403, and keeps the selection.
    @Test func theLegacyProModelNeedsAPaidPlan() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy")
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let refused = try sandbox.run("ps-settings", ["--set", "provider=pagespace", "--set", "model=glm-4.6"])
        #expect(refused.status == 5, "\(refused.stderrText)")
        #expect(refused.stderrText.hasPrefix("ps-settings: the model needs a paid plan: Subscription required"), "\(refused.stderrText)")
        #expect(refused.stdoutText.isEmpty)
        let shown = try Self.object(try sandbox.run("ps-settings", []).stdoutText)
        #expect(shown["currentModel"] as? String == "glm-4.5-air" && shown["userSubscriptionTier"] as? String == "free")
        let free = try sandbox.run("ps-settings", ["--set", "provider=pagespace", "--set", "model=glm-4.5-air"])
        #expect(free.status == 0, "\(free.stderrText)")

        let pro = try LocalServer.start(dialect: "pagespace-legacy", extraArguments: ["--subscription-tier", "pro"])
        defer { pro.stop() }
        let proSandbox = try NetworkSandbox()
        #expect(try proSandbox.login(pro).status == 0)
        let allowed = try proSandbox.run("ps-settings", ["--set", "provider=pagespace", "--set", "model=glm-4.6"])
        #expect(allowed.status == 0, "\(allowed.stderrText)")
        #expect(try Self.object(allowed.stdoutText)["currentModel"] as? String == "glm-4.6")
    }

    // MARK: what an MCP key reaches

    @Test func anMCPKeyListsModelsButNeitherReadsSettingsNorSearches() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try Self.mcpSandbox(server)
        let settings = try sandbox.run("ps-settings", [])
        #expect(settings.status == 4)
        #expect(settings.stderrText.contains("an MCP key cannot read or change the AI settings"), "\(settings.stderrText)")
        #expect(settings.stderrText.contains("ps-auth login --with-token"))
        let change = try sandbox.run("ps-settings", ["--set", "provider=google", "--set", "model=gemini-2.5-flash"])
        #expect(change.status == 4)
        let search = try sandbox.run("ps-search", ["notes"])
        #expect(search.status == 4)
        #expect(search.stderrText.contains("an MCP key cannot search"), "\(search.stderrText)")
        #expect(search.stdoutText.isEmpty)
        for result in [settings, change, search] { #expect(!result.stderrText.contains(LocalServer.mcpKey)) }
        let models = try sandbox.run("ps-models", [])
        #expect(models.status == 0, "\(models.stderrText)")
        #expect(Records.ids(try Records.parse(models.stdoutText)).contains("openai/gpt-5.6-luna"))

        // The routes themselves: search's verifyAuth answers a key a bare JSON "Unauthorized", settings
        // names the refused kind, the catalog needs nothing, the retired key route is 410.
        let mcp = ["Authorization": "Bearer \(LocalServer.mcpKey)"]
        let searchReply = try server.request("GET", "/api/search?q=notes", headers: mcp)
        #expect(searchReply.status == 401)
        #expect((try searchReply.json() as? [String: Any])?["error"] as? String == "Unauthorized")
        // With no token the middleware answers first, in plain text (middleware.ts:334-366).
        let anonymous = try server.request("GET", "/api/search?q=notes")
        #expect(anonymous.status == 401)
        #expect(anonymous.text == "Authentication required" && anonymous.headers["content-type"] == "text/plain")
        let settingsReply = try server.request("GET", "/api/ai/settings", headers: mcp)
        #expect(settingsReply.status == 401)
        #expect(settingsReply.text.contains("MCP tokens are not permitted for this endpoint"))
        let catalog = try server.request("GET", "/api/ai/models")
        #expect(catalog.status == 200)
        #expect(catalog.headers["cache-control"] == "public, max-age=300, s-maxage=300")
        // (With no token at all the middleware would answer first: middleware.ts:334-366.)
        let retired = try server.request(
            "POST", "/api/ai/settings", headers: ["Content-Type": "application/json", "Authorization": "Bearer " + LocalServer.sessionToken],
            body: "{}")
        #expect(retired.status == 410)
        #expect(retired.text.contains("Per-user API key configuration has been retired"))
    }

    // MARK: models

    @Test func modelsAreTheCatalogsInItsOrderOwnedByTheirProvider() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let listed = try sandbox.run("ps-models", [])
        #expect(listed.status == 0, "\(listed.stderrText)")
        let records = try Records.parse(listed.stdoutText)
        let catalog = try #require(try server.request("GET", "/api/ai/models").json() as? [String: Any])
        let providers = try #require(catalog["providers"] as? [[String: Any]])
        let expected = providers.flatMap { provider in
            ((provider["models"] as? [[String: Any]]) ?? []).map { [$0["id"] as? String, provider["provider"] as? String] }
        }
        #expect(!expected.isEmpty)
        #expect(records.map { [$0["id"] as? String, $0["ownedBy"] as? String] } == expected)
        // AI_PROVIDERS' order (ai-providers-config.ts:90-): OpenAI's models first.
        #expect(records.first?["id"] as? String == "openai/gpt-5.6-sol-pro" && records.first?["ownedBy"] as? String == "openai")
        #expect(catalog["defaultProvider"] as? String == "openai" && catalog["defaultModel"] as? String == "openai/gpt-5.6-luna")
        #expect(records.allSatisfy { Set($0.keys).isSubset(of: ["id", "ownedBy", "name", "created", "free", "contextWindow"]) })
    }

    // apps/web/src/lib/ai/core/model-catalog.ts:42-55 (displayName: the AI_PROVIDERS entry's
    // value; dynamic: isDynamicModelProvider, ai-providers-config.ts:440-448, Azure included)
    @Test func theCatalogNamesItsModelsAndCallsAzureDynamic() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let catalog = try #require(try server.request("GET", "/api/ai/models").json() as? [String: Any])
        let providers = try #require(catalog["providers"] as? [[String: Any]])
        func provider(_ id: String) -> [String: Any]? { providers.first { $0["provider"] as? String == id } }
        let mini = (provider("openai")?["models"] as? [[String: Any]])?.first { $0["id"] as? String == "openai/gpt-5.4-mini" }
        #expect(mini?["displayName"] as? String == "GPT-5.4 Mini")
        #expect(provider("azure_openai")?["dynamic"] as? Bool == true)
        #expect(provider("ollama")?["dynamic"] as? Bool == true)
        #expect(provider("openai")?["dynamic"] as? Bool == false)

        let sandbox = try NetworkSandbox(server: server)
        let listed = try sandbox.run("ps-models", [])
        let records = try Records.parse(listed.stdoutText)
        let first = try #require(records.first)
        #expect(first["id"] as? String == "openai/gpt-5.6-sol-pro" && first["name"] as? String == "GPT-5.6 Sol Pro", "\(first)")

        // contextWindow from MODEL_CONTEXT_WINDOWS (model-catalog.ts:53; packages/lib/src/
        // monitoring/ai-monitoring.ts), left out for a model it has none for; free from
        // FREE_TIER_MODELS. ps-models keeps both.
        #expect(mini?["contextWindow"] as? Int == 400_000 && mini?["free"] as? Bool == true)
        #expect(first["contextWindow"] as? Int == 1_050_000 && first["free"] as? Bool == false, "\(first)")
        let unsized = providers.flatMap { ($0["models"] as? [[String: Any]]) ?? [] }.filter { $0["contextWindow"] == nil }
        #expect(unsized.count < 10)
        let listedMini = records.first { $0["id"] as? String == "openai/gpt-5.4-mini" }
        #expect(listedMini?["contextWindow"] as? Int == 400_000 && listedMini?["free"] as? Bool == true)
    }

    // MARK: search on the server

    @Test func searchWritesTheServersResultsBestFirstAndNothingForNoMatch() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let notes = try sandbox.run("ps-search", ["project notes"])
        #expect(notes.status == 0, "\(notes.stderrText)")
        let hits = try Records.parse(notes.stdoutText)
        #expect(Records.ids(hits) == ["page_doc_demo"])
        #expect(hits.first?["type"] as? String == "page" && hits.first?["pageType"] as? String == "DOCUMENT")
        #expect(hits.first?["driveName"] as? String == "Demo Drive")
        #expect(hits.first?["matchLocation"] as? String == "title")
        // calculateRelevanceScore: title 1000 + the whole title 5000 + starts with 2000 +
        // contains 1000 + two exact words 1000 + all words 800 - 13 characters.
        #expect(hits.first?["relevanceScore"] as? Int == 10787)

        // "demo" names the drive and nothing else; "a" is in every title but the drive's
        // slug too: all come back, best first, and --limit cuts them.
        let everything = try Records.parse(try sandbox.run("ps-search", ["ar"]).stdoutText)
        let scores = everything.compactMap { $0["relevanceScore"] as? Int }
        #expect(scores.count == everything.count && scores == scores.sorted(by: >))
        #expect(Set(Records.ids(everything)) == ["page_agent_demo", "page_folder_demo"])
        let one = try sandbox.run("ps-search", ["--limit", "1", "ar"])
        #expect(Records.ids(try Records.parse(one.stdoutText)) == [Records.ids(everything)[0]])
        let drive = try Records.parse(try sandbox.run("ps-search", ["demo"]).stdoutText)
        #expect(drive.first?["type"] as? String == "drive" && drive.first?["description"] as? String == "/demo-drive")
        let sent = try server.requestLog().filter { ($0["path"] as? String)?.hasPrefix("/api/search") == true }
        #expect(sent.contains { $0["query"] as? String == "q=ar&limit=1" }, "\(sent)")

        let none = try sandbox.run("ps-search", ["zzzzqqq"])
        #expect(none.status == 0)
        #expect(none.stdoutText.isEmpty && none.stderrText.isEmpty)
        let short = try sandbox.run("ps-search", ["a"])
        #expect(short.status == 0 && short.stdoutText.isEmpty)
        #expect(short.stderrText.contains("2 characters"))
        let badLimit = try sandbox.run("ps-search", ["--limit", "0", "notes"])
        #expect(badLimit.status == 2)
    }

    @Test func otherAPIsCannotSearchTheServer() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy")
        defer { server.stop() }
        let sandbox = try NetworkSandbox(extra: [
            "PAGESPACE_TOKEN": "whatever", "PAGESPACE_API_URL": server.baseURL, "PAGESPACE_API_KIND": "pagespace-legacy",
        ])
        let search = try sandbox.run("ps-search", ["notes"])
        #expect(search.status == 2)
        #expect(search.stderrText.contains("cannot search"), "\(search.stderrText)")
        #expect(search.stdoutText.isEmpty)
    }

    // MARK: search of an export

    static let export = """
        {"id":"m1","role":"user","conversationId":"c1","parts":[{"type":"text","text":"When is the LAUNCH?"}]}
        {"id":"m2","role":"assistant","metadata":{"conversationId":"c1"},"createdAt":"2026-11-01T09:00:00Z","parts":[{"type":"reasoning","text":"launch"},{"type":"text","text":"The launch date is\\n\\nFriday, after the review of everything we built in the last three months together."}]}
        {"id":"m3","role":"assistant","parts":[{"type":"tool-read_page","toolCallId":"t1","input":{"q":"launch"}},{"type":"text","text":"Nothing here."}]}

        """

    @Test func anExportIsSearchedWithoutAServer() throws {
        let sandbox = try NetworkSandbox()
        let file = sandbox.directory + "/export.ndjson"
        try Self.export.write(toFile: file, atomically: true, encoding: .utf8)
        let found = try sandbox.run("ps-search", ["--in", file, "Launch"])
        #expect(found.status == 0, "\(found.stderrText)")
        let hits = try Records.parse(found.stdoutText)
        // Text parts only: m2's reasoning and m3's tool input do not count.
        #expect(hits.map { $0["messageId"] as? String } == ["m1", "m2"])
        #expect(hits.map { $0["conversationId"] as? String } == ["c1", "c1"])
        #expect(hits[0]["snippet"] as? String == "When is the LAUNCH?")
        #expect(hits[1]["createdAt"] as? String == "2026-11-01T09:00:00Z")
        let snippet = try #require(hits[1]["snippet"] as? String)
        #expect(snippet.hasPrefix("The launch date is Friday,") && snippet.hasSuffix("…"), "\(snippet)")

        // Piped standard input is searched the same way; no match writes nothing.
        let piped = try sandbox.run("ps-search", ["LAUNCH DATE"], stdin: Self.export)
        #expect(piped.status == 0)
        #expect(try Records.parse(piped.stdoutText).map { $0["messageId"] as? String } == ["m2"])
        let none = try sandbox.run("ps-search", ["--in", file, "invoice"])
        #expect(none.status == 0 && none.stdoutText.isEmpty && none.stderrText.isEmpty)

        // A bad line: the match before it is kept, exit 3 names the line.
        let broken = try sandbox.run("ps-search", ["launch"], stdin: Self.export + "not json\n")
        #expect(broken.status == 3)
        #expect(try Records.parse(broken.stdoutText).count == 2)
        #expect(broken.stderrText.contains("stdin: line 4"), "\(broken.stderrText)")
        let missing = try sandbox.run("ps-search", ["--in", sandbox.directory + "/nope.ndjson", "launch"])
        #expect(missing.status != 0 && missing.status != 3)
        #expect(missing.stderrText.contains("nope.ndjson"))
    }

    @Test func aSentMessageIsFoundInTheExportedHistory() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let conversation = LocalServer.globalConversationID
        let sent = try sandbox.run("ps-send", ["--conversation", conversation, "Remember: the Zanzibar launch is on Friday"])
        #expect(sent.status == 0, "\(sent.stderrText)")
        let result = try sandbox.shell("ps-history --conversation \(conversation) | ps-search 'zanzibar LAUNCH'")
        #expect(result.status == 0, "\(result.stderrText)")
        let hits = try Records.parse(result.stdoutText)
        // The message, and the demo server's reply, which quotes it.
        #expect(hits.map { $0["role"] as? String } == ["user", "assistant"], "\(result.stdoutText)")
        #expect(hits.first?["snippet"] as? String == "Remember: the Zanzibar launch is on Friday")
        #expect((hits.last?["snippet"] as? String)?.contains("> Remember: the Zanzibar launch is on Friday") == true)
        #expect((hits.first?["messageId"] as? String)?.isEmpty == false)
        // The server's search does not look into conversations: its own answer is nothing.
        let online = try sandbox.run("ps-search", ["zanzibar"])
        #expect(online.status == 0 && online.stdoutText.isEmpty)
    }
}
