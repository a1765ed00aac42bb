import Foundation
import Testing
import TestSupport

/// ps-local-server as a real process on loopback, driven with curl.
@Suite struct LocalServerTests {
    /// A session token, and the browser session id the current server's send routes want.
    static let session = ["Authorization": "Bearer \(LocalServer.sessionToken)", "X-Browser-Session-Id": "tab_1"]

    /// Headers that authenticate a POST in `server`'s dialect (legacy: a fresh login with CSRF).
    static func writeHeaders(_ server: LocalServer) throws -> [String: String] {
        if server.dialect == "pagespace" { return session.merging(["X-Browser-Session-Id": "test-tab-1"]) { $1 } }
        let login = try server.legacyLogin()
        return ["Authorization": "Bearer \(login.token)", "X-CSRF-Token": login.csrf]
    }

    static func readHeaders(_ server: LocalServer) throws -> [String: String] {
        if server.dialect == "pagespace" { return session }
        return ["Authorization": "Bearer \(try server.legacyLogin().token)"]
    }

    static func historyPath(_ server: LocalServer, _ conversation: String = LocalServer.globalConversationID) -> String {
        server.dialect == "pagespace"
            ? "/api/ai/global/\(conversation)/messages" : "/api/ai_conversations/\(conversation)/messages"
    }

    static func sendBody(_ text: String, id: String = "client-\(UUID().uuidString)") -> String {
        #"{"messages":[{"id":"\#(id)","role":"user","parts":[{"type":"text","text":"\#(text)"}]}],"selectedProvider":"pagespace","selectedModel":"glm-4.5-air"}"#
    }

    static func send(_ server: LocalServer, _ text: String, id: String = "client-\(UUID().uuidString)") throws -> HTTPReply {
        try server.request("POST", historyPath(server), headers: writeHeaders(server), body: sendBody(text, id: id))
    }

    static func page(_ server: LocalServer, _ headers: [String: String], query: String) throws -> (ids: [String], pagination: [String: Any]) {
        let reply = try server.request("GET", historyPath(server) + "?" + query, headers: headers)
        #expect(reply.status == 200, "\(reply.text)")
        let object = try reply.jsonObject()
        let messages = object["messages"] as? [[String: Any]] ?? []
        return (messages.compactMap { $0["id"] as? String }, object["pagination"] as? [String: Any] ?? [:])
    }

    static func messageID(_ number: Int) -> String { "msg_" + String(format: "%08d", number) }

    // MARK: Start and stop

    @Test func printsOnlyItsURLAndStopsOnSIGTERM() throws {
        let server = try LocalServer.start()
        #expect(server.baseURL.hasPrefix("http://127.0.0.1:"))
        let reply = try server.request("GET", "/api/auth/me", headers: Self.session)
        #expect(reply.status == 200)
        #expect(server.stop() == 0)
        #expect(server.stderrText.contains("GET /api/auth/me 200"))
        #expect(!server.stderrText.contains(LocalServer.sessionToken))
    }

    @Test func stopsWhenItsParentGoesAway() throws {
        // What a crashed test process does to the server it started: the write end of the
        // server's stdin closes. The server must stop by itself, not linger.
        let child = try ChildProcess.spawn(
            Executables.url("ps-local-server").path, ["--port", "0", "--watch-stdin", "--quiet"],
            environment: Run.environment(), stdin: .pipe)
        #expect(String(decoding: child.readStdoutLine(timeout: 60), as: UTF8.self).hasPrefix("http://127.0.0.1:"))
        child.closeStdin()
        let deadline = Date().addingTimeInterval(20)
        while child.isRunning && Date() < deadline { usleep(20_000) }
        #expect(!child.isRunning)
        #expect(child.wait() == 0)
    }

    @Test func manualExplainsTheAccountAndFaults() throws {
        let help = try Run.command("ps-local-server", ["--help"])
        #expect(help.status == 0)
        #expect(help.stdoutText.contains("man ps-local-server"))
        let page = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent("man/ps-local-server.1"), encoding: .utf8)
        for needle in ["demo@example.com", "ps_sess_demo-session-token", "mcp_demo-mcp-key", "/_test/faults", "EXIT STATUS"] {
            #expect(page.contains(needle), "man page lacks \(needle)")
        }
        #expect(try Run.command("ps-local-server", ["--dialect", "nope"]).status == 2)
    }

    /// --help says how to log in (the demo session token; the openai dialect's URL, with /v1) and
    /// names every dialect. The man page's route and fault tables are tables (.Bl -tag: a short
    /// term and its text side by side), and the "…" of the text is kept.
    @Test func helpSaysHowToLogInAndTheManualsTablesAreTables() throws {
        let help = try Run.command("ps-local-server", ["--help"], environment: ["COLUMNS": "200"])
        #expect(help.status == 0)
        for needle in ["pagespace (the default),", "pagespace-legacy, openai, lucid or gemini.", "echo ps_sess_demo-session-token |",
                       "ps-auth login --with-token --server http://127.0.0.1:8080",
                       "ps-auth login --api openai --server http://127.0.0.1:8081/v1 --model ps-demo"] {
            #expect(help.stdoutText.contains(needle), "--help lacks \(needle): \(help.stdoutText)")
        }
        let path = Executables.packageRoot.appendingPathComponent("man/ps-local-server.1").path
        let page = try String(contentsOfFile: path, encoding: .utf8)
        for needle in [".Ss Faults", #".It "{\(dqring\(dq:3}""#, #".It "GET /v1/models""#, #".It "pagespace-legacy""#,
                       #""messages":[\[u2026]]"#] {
            #expect(page.contains(needle), "man page lacks \(needle)")
        }
        let rendered = try Run.command("/bin/bash", ["-c", "command -v mandoc >/dev/null || exit 99; mandoc -Tutf8 \"$1\" | col -b", "bash", path])
        #expect(rendered.status == 0, "mandoc is needed for this check (scripts/setup installs it)")
        let lines = rendered.stdoutText.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for row in [#"GET /v1/models\s+ps-demo, ps-demo-mini"#, #"\{"ring":3\}\s+the next reply keeps only its last 3"#,
                    #"pagespace-legacy\s+echo demo-password \| ps-auth login"#] {
            let pattern = try Regex(row)
            #expect(lines.contains { $0.prefixMatch(of: pattern) != nil }, "no table row \(row)")
        }
        #expect(rendered.stdoutText.contains(#""messages":[…]"#))
    }

    // MARK: Authentication

    /// apps/web/src/middleware.ts:175-184,334-366 and middleware/security-headers.ts:54-74: with
    /// no bearer token of a known prefix the middleware answers a non-public /api path in plain
    /// text; lib/auth/index.ts:468-484 names a bad session and a bad format in JSON.
    @Test func currentTokenRules() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let odd: [[String: String]] = [[:], ["Authorization": "Bearer abc"], ["Authorization": "bearer " + LocalServer.sessionToken]]
        for path in ["/api/ai/global", "/api/v1/models", "/api/search?q=notes", "/api/auth/socket-token"] {
            for headers in odd {
                let refused = try server.request("GET", path, headers: headers)
                #expect(refused.status == 401, "\(path) \(headers)")
                #expect(refused.text == "Authentication required", "\(path) \(headers)")
                #expect(refused.headers["content-type"] == "text/plain")
                #expect(refused.headers["x-pagespace-api-version"] == "1.0.0")
            }
        }

        // A CORS preflight is answered by the middleware (middleware.ts:163-165); a bearer
        // request passes with the CORS headers (175-184, security-headers.ts:269-274).
        let preflight = try server.request("OPTIONS", "/api/ai/global")
        #expect(preflight.status == 204)
        #expect(preflight.headers["access-control-allow-headers"] == "Authorization, Content-Type, X-PageSpace-API-Version")
        let withBearer = try server.request("GET", "/api/auth/me", headers: Self.session)
        #expect(withBearer.status == 200 && withBearer.headers["access-control-allow-origin"] == "*")

        let unknown = try server.request("GET", "/api/ai/global", headers: ["Authorization": "Bearer ps_sess_nope"])
        #expect(unknown.status == 401)
        #expect(try unknown.jsonObject()["error"] as? String == "Invalid or expired session")

        // /api/drives is public in the middleware (middleware.ts:291): the route answers, in JSON.
        let anonymousDrives = try server.request("GET", "/api/drives")
        #expect(anonymousDrives.status == 401 && anonymousDrives.headers["content-type"] == "application/json")
        #expect(try anonymousDrives.jsonObject()["error"] as? String == "Authentication required")
        let oddDrives = try server.request("GET", "/api/drives", headers: ["Authorization": "Bearer abc"])
        #expect(try oddDrives.jsonObject()["error"] as? String == "Invalid token format")
        // An unknown or revoked MCP key (lib/auth/index.ts:420-424).
        let unknownKey = try server.request("GET", "/api/drives", headers: ["Authorization": "Bearer mcp_nope"])
        #expect(unknownKey.status == 401)
        #expect(try unknownKey.jsonObject()["error"] as? String == "Invalid MCP token")

        let mcp = ["Authorization": "Bearer \(LocalServer.mcpKey)"]
        let mcpOnGlobal = try server.request("GET", "/api/ai/global", headers: mcp)
        #expect(mcpOnGlobal.status == 401)
        #expect(try mcpOnGlobal.jsonObject()["error"] as? String == "MCP tokens are not permitted for this endpoint")
        #expect(try server.request("GET", "/api/drives", headers: mcp).status == 200)
        #expect(try server.request("GET", "/api/ai/chat/messages?pageId=page_agent_demo", headers: mcp).status == 200)

        let me = try server.request("GET", "/api/auth/me", headers: Self.session).jsonObject()
        #expect(me["id"] as? String == "user_demo")
        #expect(me["email"] as? String == LocalServer.email)

        // No password login today: there is no /api/auth/login, and the middleware, which runs
        // before routing, refuses the path for want of a credential.
        let login = try server.request("POST", "/api/auth/login", body: #"{"email":"demo@example.com","password":"demo-password"}"#)
        #expect(login.status == 401 && login.text == "Authentication required")

        let logout = try server.request("POST", "/api/auth/logout", headers: Self.session)
        #expect(try logout.jsonObject()["message"] as? String == "Logged out successfully")
        // The logout ends the browser's cookie session only: the bearer token still works.
        #expect(try server.request("GET", "/api/auth/me", headers: Self.session).status == 200)
        // /api/auth/me takes session and OAuth tokens, never an MCP key.
        #expect(try server.request("GET", "/api/auth/me", headers: mcp).status == 401)
    }

    /// The late-2025 server (458264c5b): authenticateRequestWithOptions takes the JWT from the
    /// header or the `accessToken` cookie and checks CSRF for the cookie only
    /// (lib/auth/index.ts:216-271, csrf-validation.ts:66-153); the `/api/ai_conversations`
    /// routes allow JWTs only, so an MCP key is refused by name (index.ts:234-239).
    @Test func legacyLoginAndCSRF() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy")
        defer { server.stop() }
        let wrong = try server.request("POST", "/api/auth/login", body: #"{"email":"demo@example.com","password":"nope"}"#)
        #expect(wrong.status == 401)
        #expect(try wrong.jsonObject()["error"] as? String == "Invalid email or password")

        let login = try server.request(
            "POST", "/api/auth/mobile/login",
            body: #"{"email":"demo@example.com","password":"demo-password","deviceId":"d1","platform":"desktop"}"#)
        let object = try login.jsonObject()
        let token = try #require(object["token"] as? String)
        let csrf = try #require(object["csrfToken"] as? String)
        #expect(token.split(separator: ".").count == 3 && token.hasPrefix("eyJ"))
        #expect((object["deviceToken"] as? String)?.isEmpty == false)
        #expect((object["user"] as? [String: Any])?["id"] as? String == "user_demo")

        let none = try server.request("GET", "/api/ai_conversations/global")
        #expect(none.status == 401)
        #expect(try none.jsonObject()["error"] as? String == "Authentication required")
        let forged = try server.request("GET", "/api/ai_conversations/global", headers: ["Authorization": "Bearer eyJ.x.y"])
        #expect(try forged.jsonObject()["error"] as? String == "Invalid or expired session")
        #expect(try server.request("GET", "/api/auth/me", headers: ["Authorization": "Bearer \(token)"]).status == 404)
        let global = try server.request("GET", "/api/ai_conversations/global", headers: ["Authorization": "Bearer \(token)"])
        #expect(try global.jsonObject()["id"] as? String == LocalServer.globalConversationID)

        // A bearer JWT is CSRF-exempt (index.ts:260-262): a send without X-CSRF-Token goes through.
        let path = Self.historyPath(server)
        let bearer = try server.request("POST", path, headers: ["Authorization": "Bearer \(token)"], body: Self.sendBody("hi"))
        #expect(bearer.status == 200, "\(bearer.text)")
        #expect(bearer.eventData.last == "[DONE]")
        #expect(bearer.headers["x-stream-id"] == nil)
        // The same JWT as the browser's cookie needs its CSRF token.
        let cookie = ["Cookie": "theme=dark; accessToken=\(token)"]
        let noCSRF = try server.request("POST", path, headers: cookie, body: Self.sendBody("hi"))
        #expect(noCSRF.status == 403)
        #expect(try noCSRF.jsonObject()["code"] as? String == "CSRF_TOKEN_MISSING")
        #expect(try noCSRF.jsonObject()["error"] as? String == "CSRF token required")
        let badCSRF = try server.request("POST", path, headers: cookie.merging(["X-CSRF-Token": "0000"]) { $1 }, body: Self.sendBody("hi"))
        #expect(badCSRF.status == 403)
        #expect(try badCSRF.jsonObject()["code"] as? String == "CSRF_TOKEN_INVALID")
        let good = try server.request("POST", path, headers: cookie.merging(["X-CSRF-Token": csrf]) { $1 }, body: Self.sendBody("hi"))
        #expect(good.status == 200)
        #expect(try server.request("GET", "/api/ai_conversations/global", headers: cookie).status == 200)

        // MCP keys: refused by name on the JWT-only routes, taken on the hybrid ones.
        let mcp = ["Authorization": "Bearer \(LocalServer.mcpKey)"]
        for (method, route) in [("GET", "/api/ai_conversations"), ("GET", "/api/ai_conversations/global"), ("GET", path),
                                ("GET", "/api/ai/settings"), ("GET", "/api/pages/page_agent_demo/agent-config")] {
            let refused = try server.request(method, route, headers: mcp)
            #expect(refused.status == 401, "\(route)")
            #expect(try refused.jsonObject()["error"] as? String == "MCP tokens are not permitted for this endpoint", "\(route)")
        }
        #expect(try server.request("GET", "/api/drives", headers: mcp).status == 200)
        let unknownKey = try server.request("GET", "/api/drives", headers: ["Authorization": "Bearer mcp_nope"])
        #expect(try unknownKey.jsonObject()["error"] as? String == "Invalid MCP token")
    }

    // MARK: Paging

    @Test(arguments: LocalServer.dialects)
    func pagingWalksEveryMessageOnceInBothDirections(_ dialect: String) throws {
        let total = 1000
        let server = try LocalServer.start(dialect: dialect, extraArguments: ["--history-messages", String(total)])
        defer { server.stop() }
        let headers = try Self.readHeaders(server)
        let expected = (1...total).map(Self.messageID)

        // Backwards from the newest: pages are oldest first, nextCursor leads to older ones.
        var collected: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try Self.page(server, headers, query: "limit=137" + (cursor.map { "&cursor=\($0)" } ?? ""))
            #expect(page.ids == page.ids.sorted())
            #expect(page.pagination["direction"] as? String == "before")
            #expect(page.pagination["limit"] as? Int == 137)
            collected = page.ids + collected
            cursor = page.pagination["nextCursor"] as? String
            #expect((page.pagination["hasMore"] as? Bool) == (cursor != nil))
            pages += 1
        } while cursor != nil && pages < 100
        #expect(collected == expected)
        #expect(pages == 8)

        // `after` takes the NEWEST messages after the cursor, not the ones just after it: a
        // forward walk skips whatever lies between (this is how the real servers page).
        let afterStart = try Self.page(server, headers, query: "direction=after&limit=200&cursor=msg_00000001")
        #expect(afterStart.ids == (801...1000).map(Self.messageID))
        #expect(afterStart.pagination["hasMore"] as? Bool == true)
        #expect(afterStart.pagination["nextCursor"] as? String == "msg_00000801")

        // Around a cursor, defaults, clamping, unknown cursor and conversation.
        let before = try Self.page(server, headers, query: "cursor=msg_00000500&limit=3")
        #expect(before.ids == ["msg_00000497", "msg_00000498", "msg_00000499"])
        #expect(before.pagination["prevCursor"] as? String == "msg_00000499")
        let after = try Self.page(server, headers, query: "cursor=msg_00000997&limit=3&direction=after")
        #expect(after.ids == ["msg_00000998", "msg_00000999", "msg_00001000"])
        #expect(after.pagination["hasMore"] as? Bool == false)
        #expect(after.pagination["nextCursor"] is NSNull)
        #expect(try Self.page(server, headers, query: "").ids.count == 50)
        #expect(try Self.page(server, headers, query: "limit=5000").ids.count == 200)
        if dialect == "pagespace" {
            // parseBoundedIntParam: not a number is the default (late-2025: a 500, see
            // aLegacyHistoryLimitThatIsNotANumberIsTheRoutesCatchAll).
            #expect(try Self.page(server, headers, query: "limit=abc").ids.count == 50)
        }
        // An unknown cursor adds no condition: the newest page again.
        #expect(try Self.page(server, headers, query: "cursor=msg_nope&limit=2").ids == ["msg_00000999", "msg_00001000"])
        let unknown = try server.request("GET", Self.historyPath(server, "conv_nope"), headers: headers)
        if dialect == "pagespace-legacy" {
            // ai_conversations/[id]/messages/route.ts:57-71 at 458264c5b: 404 before any paging.
            #expect(unknown.status == 404)
            #expect(try unknown.jsonObject()["error"] as? String == "Conversation not found")
        } else {
            #expect(unknown.status == 200)
            #expect((try unknown.jsonObject()["messages"] as? [Any])?.isEmpty == true)
        }
        // A direction other than `before` pages forward, and is echoed as given.
        let sideways = try Self.page(server, headers, query: "direction=sideways&cursor=msg_00000998&limit=5")
        #expect(sideways.ids == ["msg_00000999", "msg_00001000"])
        #expect(sideways.pagination["direction"] as? String == "sideways")
    }

    @Test func tenThousandMessagesPageCompletely() throws {
        let server = try LocalServer.start(extraArguments: ["--history-messages", "10000"])
        defer { server.stop() }
        var count = 0
        var cursor: String?
        var oldest = ""
        repeat {
            let page = try Self.page(server, Self.session, query: "limit=200" + (cursor.map { "&cursor=\($0)" } ?? ""))
            count += page.ids.count
            oldest = page.ids.first ?? oldest
            cursor = page.pagination["nextCursor"] as? String
        } while cursor != nil
        #expect(count == 10_000)
        #expect(oldest == "msg_00000001")
    }

    @Test func legacyReturnsSomeOlderRepliesAsStoredEnvelopes() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy", extraArguments: ["--history-messages", "40"])
        defer { server.stop() }
        let reply = try server.request(
            "GET", Self.historyPath(server) + "?limit=40", headers: try Self.readHeaders(server))
        let messages = try #require(try reply.jsonObject()["messages"] as? [[String: Any]])
        let envelopes = messages.filter { $0["content"] is String && $0["parts"] == nil }
        #expect(!envelopes.isEmpty)
        let withTool = try #require(envelopes.first { ($0["toolCalls"] as? [Any])?.isEmpty == false })
        let content = try #require(withTool["content"] as? String)
        let envelope = try #require(try JSONSerialization.jsonObject(with: Data(content.utf8)) as? [String: Any])
        let order = try #require(envelope["partsOrder"] as? [[String: Any]])
        #expect(order.contains { $0["type"] as? String == "tool-read_page" && $0["toolCallId"] != nil })
        #expect((envelope["textParts"] as? [String])?.isEmpty == false)
        #expect((withTool["toolResults"] as? [[String: Any]])?.first?["output"] != nil)
        // Only the older half: the newest messages are all in parts form.
        #expect(messages.suffix(20).allSatisfy { $0["parts"] != nil })

        let current = try LocalServer.start(extraArguments: ["--history-messages", "40"])
        defer { current.stop() }
        let all = try current.request("GET", Self.historyPath(current) + "?limit=40", headers: Self.session)
        #expect((try all.jsonObject()["messages"] as? [[String: Any]])?.allSatisfy { $0["parts"] != nil } == true)
    }

    // MARK: Streams

    @Test(arguments: LocalServer.dialects)
    func replyStreamsEndWithDoneAndAreStored(_ dialect: String) throws {
        let server = try LocalServer.start(dialect: dialect, extraArguments: ["--pace-ms", "1"])
        defer { server.stop() }
        let reply = try Self.send(server, "Please think, then use a tool", id: "client-msg-1")
        #expect(reply.status == 200)
        #expect(reply.curlStatus == 0)
        #expect(reply.headers["content-type"] == "text/event-stream")
        #expect(reply.headers["x-vercel-ai-ui-message-stream"] == "v1")
        #expect((reply.headers["x-stream-id"] != nil) == (dialect == "pagespace"))
        #expect(reply.eventData.last == "[DONE]")
        #expect(reply.text.hasSuffix("data: [DONE]\n\n"))

        let chunks = reply.chunks
        let types = chunks.compactMap { $0["type"] as? String }
        #expect(types.first == "start")
        #expect(types.dropFirst().first == "start-step")
        #expect(types.suffix(2) == ["finish-step", "finish"])
        for expected in ["reasoning-start", "reasoning-delta", "reasoning-end", "tool-input-start", "tool-input-delta",
                         "tool-input-available", "tool-output-available", "text-start", "text-delta", "text-end"] {
            #expect(types.contains(expected), "no \(expected) chunk")
        }
        // The read_page call (the current server also calls tool_search first and finish last).
        let readPage = try #require(chunks.first { $0["type"] as? String == "tool-input-start" && $0["toolName"] as? String == "read_page" })
        let readPageID = try #require(readPage["toolCallId"] as? String)
        let readPageOutput = try #require(chunks.firstIndex { $0["type"] as? String == "tool-output-available" && $0["toolCallId"] as? String == readPageID })
        #expect(types.firstIndex(of: "reasoning-start")! < chunks.firstIndex { $0["toolCallId"] as? String == readPageID }!)
        #expect(readPageOutput < types.firstIndex(of: "text-start")!)
        let finish = try #require(chunks.last)
        // A bare finish on both generations (run-agent-with-retry.ts:297 today).
        #expect(finish.keys.sorted() == ["type"] && finish["type"] as? String == "finish")

        // The streamed input deltas add up to the input.
        let deltas = chunks.filter { $0["type"] as? String == "tool-input-delta" && $0["toolCallId"] as? String == readPageID }
            .compactMap { $0["inputTextDelta"] as? String }
        #expect(deltas.count > 1)
        #expect(deltas.joined() == #"{"pageId":"page_doc_demo"}"#)

        // History ends with the user's message (its client id kept) and what was streamed.
        let messageID = try #require(chunks.first?["messageId"] as? String)
        let streamedText = chunks.filter { $0["type"] as? String == "text-delta" }.compactMap { $0["delta"] as? String }.joined()
        let history = try server.request("GET", Self.historyPath(server) + "?limit=2", headers: try Self.readHeaders(server))
        let messages = try #require(try history.jsonObject()["messages"] as? [[String: Any]])
        #expect(messages.map { $0["id"] as? String } == ["client-msg-1", messageID])
        let stored = try #require(messages.last?["parts"] as? [[String: Any]])
        #expect(stored.map { $0["type"] as? String } == (dialect == "pagespace"
            ? ["tool-tool_search", "reasoning", "tool-read_page", "text", "tool-finish"] : ["reasoning", "tool-read_page", "text"]))
        let parts = stored.filter { !["tool-tool_search", "tool-finish"].contains($0["type"] as? String) }
        #expect(parts.last?["text"] as? String == streamedText)
        #expect(parts[1]["state"] as? String == "output-available")
        #expect(streamedText.contains("Project Notes"))
    }

    @Test func repliesFollowTheKeywords() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        func text(_ question: String) throws -> (String, [String]) {
            let chunks = try Self.send(server, question).chunks
            let text = chunks.filter { $0["type"] as? String == "text-delta" }.compactMap { $0["delta"] as? String }.joined()
            // The types, and the name of each tool call begun (tool_search and finish are in every reply).
            return (text, chunks.compactMap { chunk in
                chunk["type"] as? String == "tool-input-start" ? chunk["toolName"] as? String : chunk["type"] as? String
            })
        }
        let (table, _) = try text("A TABLE of plans")
        #expect(table.contains("|------|"))
        let (code, codeTypes) = try text("show me some code")
        #expect(code.contains("```swift\n"))
        #expect(!codeTypes.contains("reasoning-start"))
        let (plain, plainTypes) = try text("What is the weather like?")
        #expect(plain.contains("> What is the weather like?"))
        #expect(plain.contains("## ") && plain.contains("- ") && plain.contains("](https://"))
        #expect(!plainTypes.contains("read_page"))
        let (_, reasonTypes) = try text("give me your reasoning")
        #expect(reasonTypes.contains("reasoning-delta"))
    }

    @Test func pageAIChatNeedsABrowserSessionAndKeepsItsHistory() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let mcp = ["Authorization": "Bearer \(LocalServer.mcpKey)"]
        let body = #"{"messages":[{"id":"page-msg-1","role":"user","parts":[{"type":"text","text":"hello agent"}]}],"chatId":"page_agent_demo","conversationId":"demoagentconversation"}"#
        let missing = try server.request("POST", "/api/ai/chat", headers: mcp, body: body)
        #expect(missing.status == 400)
        let withSession = mcp.merging(["X-Browser-Session-Id": "tab_1"]) { $1 }
        let reply = try server.request("POST", "/api/ai/chat", headers: withSession, body: body)
        #expect(reply.status == 200)
        #expect(reply.eventData.last == "[DONE]")
        let unknownPage = body.replacingOccurrences(of: "page_agent_demo", with: "page_nope")
        #expect(try server.request("POST", "/api/ai/chat", headers: withSession, body: unknownPage).status == 403)

        let history = try server.request(
            "GET", "/api/ai/chat/messages?pageId=page_agent_demo&conversationId=demoagentconversation", headers: mcp)
        let messages = try #require(try history.json() as? [[String: Any]])
        #expect(messages.count == 6)
        #expect(messages[4]["id"] as? String == "page-msg-1")

        let list = try server.request("GET", "/api/ai/page-agents/page_agent_demo/conversations", headers: mcp).jsonObject()
        let conversations = try #require(list["conversations"] as? [[String: Any]])
        #expect(conversations.first?["id"] as? String == "demoagentconversation")
        #expect(conversations.first?["messageCount"] as? Int == 6)
        let paged = try server.request(
            "GET", "/api/ai/page-agents/page_agent_demo/conversations/demoagentconversation/messages?limit=2", headers: mcp)
        #expect((try paged.jsonObject()["messages"] as? [Any])?.count == 2)
        let agents = try server.request("GET", "/api/drives/drivedemo/agents", headers: mcp).jsonObject()
        #expect(((agents["agents"] as? [[String: Any]])?.first)?["id"] as? String == "page_agent_demo")
    }

    @Test func abortStopsTheStreamAndStoresThePartialReply() throws {
        // A slow pace keeps the reply running long after the abort arrives.
        let server = try LocalServer.start(extraArguments: ["--pace-ms", "200"])
        defer { server.stop() }
        let stream = try server.startRequest(
            "POST", Self.historyPath(server), headers: Self.session, body: Self.sendBody("tell me about the launch"))
        #expect(stream.waitFor(#""type":"text-delta""#))
        let streamID = try #require(
            stream.received.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("x-stream-id:") }?
                .split(separator: " ").last.map(String.init))
        let abort = try server.request("POST", "/api/ai/abort", headers: Self.session, body: #"{"streamId":"\#(streamID)"}"#)
        let answer = try abort.jsonObject()
        #expect(answer["aborted"] as? Bool == true && answer["code"] as? String == "aborted")
        let reply = stream.finish()
        let types = reply.chunks.compactMap { $0["type"] as? String }
        #expect(types.last == "abort")
        #expect(!types.contains("finish"))
        #expect(reply.eventData.last == "[DONE]")

        let history = try server.request("GET", Self.historyPath(server) + "?limit=1", headers: Self.session)
        let last = try #require((try history.jsonObject()["messages"] as? [[String: Any]])?.last)
        #expect(last["id"] as? String == reply.chunks.first?["messageId"] as? String)
        let text = (last["parts"] as? [[String: Any]])?.compactMap { $0["text"] as? String }.joined() ?? ""
        let streamedText = reply.chunks.filter { $0["type"] as? String == "text-delta" }.compactMap { $0["delta"] as? String }.joined()
        #expect(!streamedText.isEmpty)
        #expect(text == streamedText)

        // Nothing left to abort; MCP keys may not abort.
        let again = try server.request("POST", "/api/ai/abort", headers: Self.session, body: #"{"streamId":"\#(streamID)"}"#)
        let none = try again.jsonObject()
        #expect(none["aborted"] as? Bool == false && none["code"] as? String == "not_found")
        #expect(try server.request("POST", "/api/ai/abort", headers: Self.session, body: "{}").status == 400)
        let mcp = try server.request(
            "POST", "/api/ai/abort", headers: ["Authorization": "Bearer \(LocalServer.mcpKey)"], body: "{}")
        #expect(mcp.status == 401)
    }

    @Test func aClientThatHangsUpDoesNotStopTheReply() throws {
        // The pace makes the reply last at least 4 s; the client gives up after 1 s.
        let server = try LocalServer.start(extraArguments: ["--pace-ms", "100"])
        defer { server.stop() }
        let cut = try server.request("POST", Self.historyPath(server), headers: Self.session, body: Self.sendBody("hang up on me"), timeout: 1)
        #expect(cut.curlStatus == 28)
        #expect(!cut.eventData.contains("[DONE]"))
        // The reply is generated to its end and stored, as PageSpace does.
        var parts: [[String: Any]] = []
        for _ in 0..<1500 where parts.isEmpty {
            let page = try server.request("GET", Self.historyPath(server) + "?limit=1", headers: Self.session)
            let last = (try page.jsonObject()["messages"] as? [[String: Any]])?.last
            if last?["role"] as? String == "assistant" { parts = last?["parts"] as? [[String: Any]] ?? [] }
            if parts.isEmpty { usleep(20_000) }
        }
        #expect((parts.last { $0["type"] as? String == "text" }?["text"] as? String)?.hasSuffix("or ask me to read a page.") == true)
    }

    // MARK: Faults

    @Test(arguments: LocalServer.dialects)
    func statusFaultsAnswerWithTheDialectsBodiesThenRecover(_ dialect: String) throws {
        let server = try LocalServer.start(dialect: dialect)
        defer { server.stop() }
        let headers = try Self.readHeaders(server)
        let path = Self.historyPath(server)
        for status in [401, 402, 403, 404, 500, 502, 503] {
            try server.armFault(#"{"status":\#(status),"times":1}"#)
            let reply = try server.request("GET", path, headers: headers)
            #expect(reply.status == status)
            #expect(try reply.jsonObject()["error"] is String)
            #expect(try server.request("GET", path, headers: headers).status == 200)
        }
        try server.armFault(#"{"status":429,"times":2,"retryAfter":3,"path":"\#(path)"}"#)
        #expect(try server.request("GET", "/api/drives", headers: headers).status == 200)
        for _ in 0..<2 {
            let limited = try server.request("GET", path, headers: headers)
            #expect(limited.status == 429)
            #expect(limited.headers["retry-after"] == "3")
            let body = try limited.jsonObject()
            if dialect == "pagespace" {
                #expect(body["error"] as? String == "too_many_in_flight")
                #expect(body["message"] is String)
            } else {
                #expect(body["error"] as? String == "Rate limit exceeded")
                #expect((body["rateLimitInfo"] as? [String: Any])?["remainingCalls"] as? Int == 0)
            }
        }
        #expect(try server.request("GET", path, headers: headers).status == 200)

        try server.armFault(#"{"status":429,"body":{"error":"daily_cap_exceeded","message":"Come back tomorrow"}}"#)
        let capped = try server.request("GET", path, headers: headers)
        #expect(capped.status == 429)
        #expect(try capped.jsonObject()["error"] as? String == "daily_cap_exceeded")

        try server.armFault(#"{"status":503,"times":5}"#)
        try server.clearFaults()
        #expect(try server.request("GET", path, headers: headers).status == 200)
        #expect(try server.request("POST", "/_test/faults", body: #"{"status":200}"#).status == 400)
        #expect(try server.request("POST", "/_test/faults", body: #"{"nothing":true}"#).status == 400)
    }

    @Test(arguments: LocalServer.dialects)
    func dropFaultClosesMidStreamWithoutDone(_ dialect: String) throws {
        let server = try LocalServer.start(dialect: dialect)
        defer { server.stop() }
        try server.armFault(#"{"drop":true,"afterEvents":3,"times":1}"#)
        let cut = try Self.send(server, "hello there")
        #expect(cut.status == 200)
        #expect(cut.curlStatus == 18, "curl: \(cut.curlError)")
        #expect(cut.eventData.count == 3)
        #expect(!cut.eventData.contains("[DONE]"))

        // The server went on generating: the whole reply is in the history.
        let messageID = try #require(cut.chunks.first?["messageId"] as? String)
        var stored: [String: Any]?
        for _ in 0..<100 where stored == nil {
            let page = try server.request("GET", Self.historyPath(server) + "?limit=1", headers: try Self.readHeaders(server))
            stored = (try page.jsonObject()["messages"] as? [[String: Any]])?.first { $0["id"] as? String == messageID }
            if stored == nil { usleep(20_000) }
        }
        #expect(stored != nil)

        let next = try Self.send(server, "and again")
        #expect(next.curlStatus == 0)
        #expect(next.eventData.last == "[DONE]")
    }

    @Test func slowFaultSendsKeepAliveComments() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        try server.armFault(#"{"slow":true,"keepAliveMs":5,"pauseMs":12,"times":1}"#)
        let slow = try Self.send(server, "hi")
        #expect(slow.text.contains(": keep-alive\n\n"))
        #expect(slow.eventData.last == "[DONE]")
        let normal = try Self.send(server, "hi")
        #expect(!normal.text.contains("keep-alive"))
    }

    @Test(arguments: LocalServer.dialects)
    func historyDropFaultClosesWithoutAnAnswer(_ dialect: String) throws {
        let server = try LocalServer.start(dialect: dialect, extraArguments: ["--history-messages", "30"])
        defer { server.stop() }
        let headers = try Self.readHeaders(server)
        try server.armFault(#"{"dropHistory":true,"afterPages":1,"times":1}"#)
        let first = try server.request("GET", Self.historyPath(server) + "?limit=10", headers: headers)
        #expect(first.status == 200)
        let dropped = try server.request("GET", Self.historyPath(server) + "?limit=10&cursor=msg_00000021", headers: headers)
        #expect(dropped.curlStatus == 52, "curl: \(dropped.curlStatus) \(dropped.curlError)")
        #expect(dropped.status == 0)
        let again = try server.request("GET", Self.historyPath(server) + "?limit=10&cursor=msg_00000021", headers: headers)
        #expect(again.status == 200)
    }

    @Test func requestLogShowsHeadersAndBodiesWithSecretsRedacted() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy")
        defer { server.stop() }
        let headers = try Self.writeHeaders(server)
        _ = try server.request(
            "POST", Self.historyPath(server), headers: headers.merging(["X-Browser-Session-Id": "tab-9"]) { $1 },
            body: Self.sendBody("hi", id: "logged-1"))
        let log = try server.requestLog()
        #expect(log.count == 2)
        let login = log[0]
        #expect(login["path"] as? String == "/api/auth/mobile/login")
        #expect((login["body"] as? [String: Any])?["password"] as? String == "<redacted>")
        let send = log[1]
        let sentHeaders = try #require(send["headers"] as? [String: String])
        #expect(sentHeaders["authorization"] == "<redacted>")
        #expect(sentHeaders["x-csrf-token"] == "<redacted>")
        #expect(sentHeaders["x-browser-session-id"] == "tab-9")
        let body = try #require(send["body"] as? [String: Any])
        #expect(body["selectedModel"] as? String == "glm-4.5-air")
        let raw = try server.request("GET", "/_test/requests").text
        #expect(!raw.contains(LocalServer.password))
        #expect(!raw.contains(headers["X-CSRF-Token"]!))
        try server.clearRequestLog()
        #expect(try server.requestLog().isEmpty)
    }

    @Test func globalConversationsCanBeListedCreatedRenamedAndDeleted() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let created = try server.request("POST", "/api/ai/global", headers: Self.session, body: #"{"title":"Scratch"}"#).jsonObject()
        let id = try #require(created["id"] as? String)
        // `active` skips conversations without messages.
        let active = try server.request("GET", "/api/ai/global/active", headers: Self.session).jsonObject()
        #expect(active["id"] as? String == LocalServer.globalConversationID)
        // The listing skips them too (hasMessages).
        let empty = try #require(try server.request("GET", "/api/ai/global", headers: Self.session).json() as? [[String: Any]])
        #expect(empty.count == 1)

        let renamed = try server.request("PATCH", "/api/ai/global/\(id)", headers: Self.session, body: #"{"title":"Renamed"}"#)
        #expect(try renamed.jsonObject()["title"] as? String == "Renamed")
        let reply = try server.request(
            "POST", "/api/ai/global/\(id)/messages", headers: Self.session, body: Self.sendBody("first words"))
        #expect(reply.eventData.last == "[DONE]")
        #expect(try server.request("GET", "/api/ai/global/active", headers: Self.session).jsonObject()["id"] as? String == id)
        let list = try #require(try server.request("GET", "/api/ai/global", headers: Self.session).json() as? [[String: Any]])
        #expect(list.count == 2)
        let paged = try server.request("GET", "/api/ai/global?paginated=true&limit=1", headers: Self.session).jsonObject()
        let pagination = try #require(paged["pagination"] as? [String: Any])
        #expect(pagination["hasMore"] as? Bool == true)
        let cursor = try #require(pagination["nextCursor"] as? String)
        let second = try server.request("GET", "/api/ai/global?paginated=true&limit=1&cursor=\(cursor)", headers: Self.session).jsonObject()
        #expect(((second["conversations"] as? [[String: Any]])?.first)?["id"] as? String == LocalServer.globalConversationID)
        let deleted = try server.request("DELETE", "/api/ai/global/\(id)", headers: Self.session)
        #expect(try deleted.jsonObject()["success"] as? Bool == true)
        #expect(try server.request("POST", "/api/ai/global/\(id)/messages", headers: Self.session, body: Self.sendBody("x")).status == 404)
    }

    /// The late-2025 messages route reads `Math.min(parseInt(limit || '50'), 200)` and asks for
    /// `limit + 1` rows: a limit that is not a number, or below -1, fails the query, the catch-all
    /// 500 (458264c5b ai_conversations/[id]/messages/route.ts:74,112,157-161). An empty one is 50.
    @Test func aLegacyHistoryLimitThatIsNotANumberIsTheRoutesCatchAll() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy", extraArguments: ["--quiet"])
        defer { server.stop() }
        let headers = try Self.readHeaders(server)
        for limit in ["abc", "-5"] {
            let answer = try server.request("GET", Self.historyPath(server) + "?limit=\(limit)", headers: headers)
            #expect(answer.status == 500, "\(limit)")
            #expect(answer.text == #"{"error":"Failed to fetch messages"}"#, "\(limit): \(answer.text)")
        }
        for limit in ["", "7abc", "500"] {
            let answer = try server.request("GET", Self.historyPath(server) + "?limit=\(limit)", headers: headers)
            #expect(answer.status == 200, "\(limit): \(answer.text)")
        }
    }
}
