import Foundation
import Testing
import TestSupport

/// A second reading of the current PageSpace routes the twin serves, against the real handlers
/// (2witstudios/PageSpace at HEAD): what differed, as the real route answers it.
@Suite struct CurrentRouteReadingTests {
    static let session = ["Authorization": "Bearer \(LocalServer.sessionToken)"]

    /// A Global conversation with messages (an empty one is not listed).
    static func conversation(_ server: LocalServer, _ title: String) throws -> String {
        let made = try server.request("POST", "/api/ai/global", headers: Self.session, body: #"{"title":"\#(title)"}"#)
        let id = try #require(try made.jsonObject()["id"] as? String)
        let filled = try server.request("POST", "/_test/messages", body: #"{"conversationId":"\#(id)","count":2}"#)
        #expect(filled.status == 200, "\(filled.text)")
        return id
    }

    static func listed(_ server: LocalServer, _ query: String) throws -> (ids: [String], pagination: [String: Any]) {
        let answer = try server.request("GET", "/api/ai/global?paginated=true&" + query, headers: Self.session)
        #expect(answer.status == 200, "\(query): \(answer.text)")
        let object = try answer.jsonObject()
        let ids = (object["conversations"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        return (ids, object["pagination"] as? [String: Any] ?? [:])
    }

    // apps/web/src/app/api/ai/global/route.ts:42-60 (parseBoundedIntParam, default 20, 1-100);
    // lib/conversations/conversation-recency.ts:115-157 (the cursor: base64url of the sort key
    // and id; one that does not decode is ignored, page one).
    @Test func theGlobalListsCursorIsOpaqueAndItsLimitIsBounded() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let made = [try Self.conversation(server, "One"), try Self.conversation(server, "Two")]
        let all = try Self.listed(server, "limit=100").ids
        #expect(all.count == 3 && Set(made).isSubset(of: Set(all)), "\(all)")

        #expect(try Self.listed(server, "limit=abc").pagination["limit"] as? Int == 20)
        #expect(try Self.listed(server, "limit=0").pagination["limit"] as? Int == 1)
        #expect(try Self.listed(server, "limit=500").pagination["limit"] as? Int == 100)

        var seen: [String] = []
        var query = "limit=1"
        while true {
            let page = try Self.listed(server, query)
            seen += page.ids
            guard let cursor = page.pagination["nextCursor"] as? String else { break }
            #expect(!all.contains(cursor), "the cursor is no conversation id")
            var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            let decoded = try JSONSerialization.jsonObject(with: try #require(Data(base64Encoded: base64))) as? [String: Any]
            #expect(decoded?["id"] as? String == page.ids.last)
            #expect(decoded?["sortKey"] is String)
            query = "limit=1&cursor=" + cursor
        }
        #expect(seen == all)
        // A cursor that does not decode is page one, not an empty page.
        #expect(try Self.listed(server, "limit=1&cursor=not-a-cursor").ids == [all[0]])
        #expect(try Self.listed(server, "limit=1&cursor=\(all[1])").ids == [all[0]])

        // The client walks the pages to the end.
        let sandbox = try NetworkSandbox(server: server)
        let listing = try sandbox.run("ps-history", ["--list"])
        #expect(listing.status == 0, "\(listing.stderrText)")
        #expect(Records.ids(try Records.parse(listing.stdoutText)) == all)
    }

    // apps/web/src/app/api/ai/global/route.ts:81-126 (POST): the row made, the id a cuid
    // (createId, global-conversation-repository.ts:335-358); a body that is not JSON, or null,
    // is the catch-all 500.
    @Test func creatingAGlobalConversationGivesACuidAndABadBodyIsA500() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let made = try server.request("POST", "/api/ai/global", headers: Self.session, body: #"{"title":"Scratch"}"#)
        #expect(made.status == 200)
        let id = try #require(try made.jsonObject()["id"] as? String)
        #expect(id.range(of: "^[a-z0-9]{20,32}$", options: .regularExpression) != nil, "\(id)")
        // The whole row (:120), the title null when none was given (:344).
        let untitled = try server.request("POST", "/api/ai/global", headers: Self.session, body: "{}").jsonObject()
        #expect(untitled["title"] is NSNull, "\(untitled)")
        #expect(untitled["type"] as? String == "global")
        #expect(untitled["isActive"] as? Bool == true && untitled["isShared"] as? Bool == false)
        #expect(untitled["rev"] as? Int == 0 && untitled["userId"] is String)
        #expect(untitled["agentPageId"] is NSNull && untitled["planPageId"] is NSNull && untitled["lastMessageAt"] is NSNull)
        for body in ["not json", "null"] {
            let refused = try server.request("POST", "/api/ai/global", headers: Self.session, body: body)
            #expect(refused.status == 500, "\(body): \(refused.text)")
            #expect(try refused.jsonObject()["error"] as? String == "Failed to create conversation")
        }
    }

    // apps/web/src/app/api/ai/global/route.ts:92-99 with createConversation
    // (global-conversation-repository.ts:335-359): the type and contextId are kept as given, so
    // a "page" conversation is its agent's: listed there, not among the Global ones, and a
    // Global send to it is not found (resolve-or-create-conversation.ts:83-86).
    @Test func creatingAConversationKeepsItsTypeAndContext() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let made = try server.request(
            "POST", "/api/ai/global", headers: Self.session, body: #"{"title":"Agent thread","type":"page","contextId":"page_agent_demo"}"#)
        let row = try made.jsonObject()
        #expect(row["type"] as? String == "page" && row["contextId"] as? String == "page_agent_demo", "\(row)")
        let id = try #require(row["id"] as? String)
        #expect(try server.request("POST", "/_test/messages", body: #"{"conversationId":"\#(id)","count":2}"#).status == 200)
        let agents = try server.request("GET", "/api/ai/page-agents/page_agent_demo/conversations", headers: Self.session).jsonObject()
        #expect((agents["conversations"] as? [[String: Any]] ?? []).contains { $0["id"] as? String == id }, "\(agents)")
        #expect(try !Self.listed(server, "limit=100").ids.contains(id))
        let sent = try server.request(
            "POST", "/api/ai/global/\(id)/messages", headers: Self.session.merging(["X-Browser-Session-Id": "tab_1"]) { $1 },
            body: #"{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"hi"}]}]}"#)
        #expect(sent.status == 404, "\(sent.text)")
    }

    // apps/web/src/app/api/ai/global/[id]/route.ts with getConversationById and
    // updateConversationTitle (global-conversation-repository.ts:400-439): any active
    // conversation of the user's, of any type, is read, renamed and deleted here.
    @Test func theGlobalIdRoutesTakeAnyConversationOfTheUsers() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let path = "/api/ai/global/demoagentconversation"
        let read = try server.request("GET", path, headers: Self.session)
        #expect(read.status == 200, "\(read.text)")
        #expect(try read.jsonObject()["type"] as? String == "page")
        let renamed = try server.request("PATCH", path, headers: Self.session, body: #"{"title":"Renamed here"}"#)
        #expect(try renamed.jsonObject()["title"] as? String == "Renamed here")
        let deleted = try server.request("DELETE", path, headers: Self.session)
        #expect(try deleted.jsonObject()["success"] as? Bool == true)
        #expect(try server.request("GET", path, headers: Self.session).status == 404)
        let listed = try server.request(
            "GET", "/api/ai/page-agents/page_agent_demo/conversations", headers: Self.session).jsonObject()
        #expect((listed["conversations"] as? [[String: Any]])?.isEmpty == true)
        #expect(try server.request("GET", "/api/ai/global/no_such_conversation", headers: Self.session).status == 404)
        // A deleted conversation is not started anew by a send naming it (its row stays,
        // isActive false: page-chat-turn.ts:672-682, global-chat-turn.ts:465-474).
        let sandbox = try NetworkSandbox(server: server)
        let again = try sandbox.run("ps-send", ["--page", "page_agent_demo", "--conversation", "demoagentconversation", "hello"])
        #expect(again.status == 6, "\(again.stderrText)")
        #expect(again.stderrText.contains("Conversation not found"), "\(again.stderrText)")
        let global = try Self.conversation(server, "Gone")
        #expect(try server.request("DELETE", "/api/ai/global/\(global)", headers: Self.session).status == 200)
        let send = try sandbox.run("ps-send", ["--conversation", global, "hello"])
        #expect(send.status == 6, "\(send.stderrText)")
    }

    // apps/web/src/app/api/ai/page-agents/[agentId]/conversations/route.ts:64-140 with
    // conversation-repository.ts:88-123 (preview and title), 448-531 (the listing).
    @Test func anAgentsConversationsAreTitledFromTheirFirstQuestion() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let mcp = ["Authorization": "Bearer \(LocalServer.mcpKey)"]
        let question = "What did the team decide about the launch date, and who owns the follow-up?"
        let consulted = try server.request(
            "POST", "/api/ai/page-agents/consult", headers: mcp, body: #"{"agentId":"page_agent_demo","question":"\#(question)"}"#)
        let id = try #require(try consulted.jsonObject()["conversationId"] as? String)
        let listed = try server.request(
            "GET", "/api/ai/page-agents/page_agent_demo/conversations?pageSize=500", headers: mcp).jsonObject()
        #expect((listed["pagination"] as? [String: Any])?["pageSize"] as? Int == 200)
        let conversations = try #require(listed["conversations"] as? [[String: Any]])
        #expect(conversations.map { $0["id"] as? String } == [id, "demoagentconversation"])
        let made = try #require(conversations.first)
        #expect(made["preview"] as? String == question)
        #expect(made["title"] as? String == String(question.prefix(50)) + "...")
        #expect(made["isOwner"] as? Bool == true)
        #expect(made["isShared"] as? Bool == false)
        #expect((made["lastMessage"] as? [String: Any])?["role"] as? String == "assistant")
        #expect(made["messageCount"] as? Int == 2)
        let messages = try server.request(
            "GET", "/api/ai/chat/messages?pageId=page_agent_demo&conversationId=\(id)", headers: mcp).json() as? [[String: Any]]
        #expect(made["createdAt"] as? String == messages?.first?["createdAt"] as? String)
        #expect(made["updatedAt"] as? String == messages?.last?["createdAt"] as? String)
    }

    /// An untitled Global conversation is named after its first message as
    /// deriveConversationTitle does (global-chat-turn.ts:579-585; derive-conversation-title.ts):
    /// a filler opening cut, the first line that is not blank, a heading's #s dropped, at most
    /// 50 UTF-16 units then "...". A titled one keeps its title.
    @Test func anUntitledGlobalConversationIsNamedAfterItsFirstMessage() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        func title(after first: String) throws -> String? {
            let sent = try sandbox.run("ps-send", ["--new-conversation", "--print-ids", first])
            #expect(sent.status == 0, "\(sent.stderrText)")
            let id = try #require(Records.value("conversation", in: sent.stderrText), "\(sent.stderrText)")
            return try server.request("GET", "/api/ai/global/\(id)", headers: Self.session).jsonObject()["title"] as? String
        }
        #expect(try title(after: "Can you plan a weekend in Lisbon?\nWith museums") == "plan a weekend in Lisbon?")
        #expect(try title(after: "\n  \n## Implement the following plan:") == "Implement the following plan:")
        #expect(try title(after: "Implement the following plan:  please help") == "help")
        let long = String(repeating: "word ", count: 20)
        #expect(try title(after: long) == String(long.prefix(50)) + "...")
        let made = try server.request("POST", "/api/ai/global", headers: Self.session, body: #"{"title":"Mine"}"#).jsonObject()
        let id = try #require(made["id"] as? String)
        let kept = try sandbox.run("ps-send", ["--conversation", id, "hello there"])
        #expect(kept.status == 0, "\(kept.stderrText)")
        #expect(try server.request("GET", "/api/ai/global/\(id)", headers: Self.session).jsonObject()["title"] as? String == "Mine")
    }

    // apps/web/src/app/api/auth/logout/route.ts:13-120: no credential asked for (a public
    // path of the middleware); it revokes the cookie's session when there is one and always
    // answers 200, clearing the cookies (cookie-config.ts:112-131).
    @Test func logoutAnswersWhateverTheCredential() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        for headers in [[:], ["Authorization": "Bearer \(LocalServer.mcpKey)"], Self.session] {
            let logout = try server.request("POST", "/api/auth/logout", headers: headers)
            #expect(logout.status == 200, "\(headers): \(logout.text)")
            #expect(try logout.jsonObject()["message"] as? String == "Logged out successfully")
            #expect(logout.headers["set-cookie"]?.contains("Expires=Thu, 01 Jan 1970 00:00:00 GMT") == true)
        }
    }

    // apps/web/src/app/api/ai/chat/active-streams/route.ts:70-96: a channel that is a page the
    // user cannot view (one that does not exist) is 403, as another user's global channel is.
    @Test func activeStreamsOfAPageThatIsNotThereIsForbidden() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let path = "/api/ai/chat/active-streams?channelId="
        #expect(try server.request("GET", path + "page_agent_demo", headers: Self.session).status == 200)
        for channel in ["no_such_page", "user:someone_else:global"] {
            let refused = try server.request("GET", path + channel, headers: Self.session)
            #expect(refused.status == 403, "\(channel): \(refused.text)")
            #expect(try refused.jsonObject()["error"] as? String == "Forbidden")
        }
    }

    // apps/web/src/app/api/ai/chat/messages/route.ts:41-47: a page the user cannot view (one
    // that does not exist) is 403 with the route's words; any other page answers its messages.
    @Test func aPagesMessagesOfAPageThatIsNotThereAreForbidden() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let refused = try server.request("GET", "/api/ai/chat/messages?pageId=no_such_page", headers: Self.session)
        #expect(refused.status == 403, "\(refused.text)")
        #expect(try refused.jsonObject()["error"] as? String == "You need view permission to access this page's chat messages")
        #expect(try refused.jsonObject()["details"] as? String == "Contact the page owner to request access")
        let document = try server.request("GET", "/api/ai/chat/messages?pageId=page_doc_demo", headers: Self.session)
        #expect(document.status == 200, "\(document.text)")
        #expect((try document.json() as? [Any])?.isEmpty == true)
    }

    // page-chat-turn.ts:395-403 (messages, then chatId), :485-493 (a page that is not there is
    // one the user may not view: 403), :628-691 (the conversation), and only then the credit
    // gate (:742-750).
    @Test func aPageChatTurnChecksItsMessagesThePageAndTheConversationBeforeTheCredits() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet", "--credit-gate", "out_of_credits"])
        defer { server.stop() }
        let headers = Self.session.merging(["X-Browser-Session-Id": "tab_1"]) { $1 }
        let messages = #"[{"id":"m1","role":"user","parts":[{"type":"text","text":"hello"}]}]"#
        let cases: [(body: String, status: Int, error: String)] = [
            (#"{"chatId":"page_agent_demo"}"#, 400, "messages are required"),
            (#"{"messages":[],"chatId":"page_agent_demo"}"#, 400, "messages are required"),
            (#"{"messages":\#(messages)}"#, 400, "chatId is required"),
            (#"{"messages":\#(messages),"chatId":"no_such_page"}"#, 403, "You do not have permission to view this AI chat"),
            (#"{"messages":\#(messages),"chatId":"page_agent_demo","conversationId":"not-a-cuid"}"#, 400, "Invalid conversationId"),
            (#"{"messages":\#(messages),"chatId":"page_agent_demo"}"#, 402, "out_of_credits"),
        ]
        for (body, status, error) in cases {
            let answer = try server.request("POST", "/api/ai/chat", headers: headers, body: body)
            #expect(answer.status == status, "\(body): \(answer.text)")
            #expect(try answer.jsonObject()["error"] as? String == error, "\(body)")
        }
    }

    // apps/web/src/app/api/search/route.ts:241-286: every drive the user owns is searched, and
    // the pages of all of them, each named with its own drive.
    @Test func searchCoversEveryDriveTheUserOwns() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let reply = try server.request("GET", "/api/search?q=team", headers: Self.session)
        #expect(reply.status == 200, "\(reply.text)")
        let results = try #require(try reply.jsonObject()["results"] as? [[String: Any]])
        let drive = results.first { $0["type"] as? String == "drive" }
        #expect(drive?["id"] as? String == "driveteam" && drive?["description"] as? String == "/team-drive", "\(results)")
        let page = results.first { $0["id"] as? String == "page_agent_team" }
        #expect(page?["driveId"] as? String == "driveteam" && page?["driveName"] as? String == "Team Drive", "\(results)")
        #expect(page?["description"] as? String == "ai_chat in Team Drive")
        let drives = try server.request("GET", "/api/search?q=drive", headers: Self.session).jsonObject()["results"] as? [[String: Any]]
        #expect(Set((drives ?? []).filter { $0["type"] as? String == "drive" }.compactMap { $0["id"] as? String })
            == ["drivedemo", "driveteam"])
    }

    // apps/web/src/app/api/ai/global/[id]/messages/[messageId]/route.ts:46-58, 170-182: the
    // conversation is any active one of the user's (getConversationById looks at no type), so
    // a page agent's message is edited and deleted here too.
    @Test func theGlobalMessageRoutesEditAndDeleteAnAgentsMessage() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let history = "/api/ai/chat/messages?pageId=page_agent_demo&conversationId=demoagentconversation"
        func ids() throws -> [String] {
            (try server.request("GET", history, headers: Self.session).json() as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }
        let before = try ids()
        let first = try #require(before.first), second = try #require(before.dropFirst().first)
        let path = "/api/ai/global/demoagentconversation/messages/"
        let edited = try server.request("PATCH", path + first, headers: Self.session, body: #"{"content":"changed"}"#)
        #expect(edited.status == 200, "\(edited.text)")
        let deleted = try server.request("DELETE", path + second, headers: Self.session)
        #expect(deleted.status == 200, "\(deleted.text)")
        #expect(try ids() == before.filter { $0 != second })
        let messages = try server.request("GET", history, headers: Self.session).json() as? [[String: Any]]
        let parts = messages?.first?["parts"] as? [[String: Any]]
        #expect(parts?.contains { $0["text"] as? String == "changed" } == true, "\(parts ?? [])")
        let missing = try server.request("DELETE", "/api/ai/global/no_such_conversation/messages/" + first, headers: Self.session)
        #expect(missing.status == 404)
        #expect(try missing.jsonObject()["error"] as? String == "Conversation not found")
    }

    // apps/web/src/app/api/account/oauth-grants/[grantId]/route.ts:15,25-26,49-51: a body that
    // is not an object, or a stepUpToken that is not a string, is zod's 400 with its issue, in
    // zod 4's words (expected, then what was received); a body that is not JSON reads as {}.
    @Test func revokingAGrantReadsItsBodyAsZodDoes() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let path = "/api/account/oauth-grants/grant_demo"
        for (body, issuePath, message) in [
            ("null", [String](), "Invalid input: expected object, received null"),
            ("[]", [], "Invalid input: expected object, received array"),
            (#"{"stepUpToken":5}"#, ["stepUpToken"], "Invalid input: expected string, received number"),
        ] {
            let refused = try server.request("DELETE", path, headers: Self.session, body: body)
            #expect(refused.status == 400, "\(body): \(refused.text)")
            let issue = (try refused.jsonObject()["error"] as? [[String: Any]])?.first
            #expect(issue?["code"] as? String == "invalid_type", "\(body)")
            #expect(issue?["path"] as? [String] == issuePath, "\(body)")
            #expect(issue?["message"] as? String == message, "\(body)")
        }
        let notJSON = try server.request("DELETE", path, headers: Self.session, body: "not json")
        #expect(notJSON.status == 401)
        #expect(try notJSON.jsonObject()["error"] as? String == "step_up_required")
    }

    // apps/web/src/app/api/ai/settings/route.ts:54-59: the stored pair as resolveProviderModel
    // resolves it (ai-providers-config.ts:498-521): a pair the catalog does not hold (a send
    // stores the pair it names as sent, provider-factory.ts:238-257) shows as the default pair.
    @Test func theSettingsShowTheStoredPairAsItResolves() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet", "--subscription-tier", "pro"])
        defer { server.stop() }
        let models = try server.request("GET", "/api/ai/models").jsonObject()
        let defaultPair = [models["defaultProvider"] as? String, models["defaultModel"] as? String]
        func shown() throws -> [String?] {
            let settings = try server.request("GET", "/api/ai/settings", headers: Self.session).jsonObject()
            return [settings["currentProvider"] as? String, settings["currentModel"] as? String]
        }
        let gpt = try server.request(
            "PATCH", "/api/ai/settings", headers: Self.session, body: #"{"provider":"openai","model":"\#(ModelSelectionTests.paid)"}"#)
        #expect(gpt.status == 200, "\(gpt.text)")
        #expect(try shown() == ["openai", ModelSelectionTests.paid])
        let send = try server.request(
            "POST", "/api/ai/global/\(LocalServer.globalConversationID)/messages",
            headers: Self.session.merging(["X-Browser-Session-Id": "tab_1"]) { $1 },
            body: #"{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"hi"}]}],"selectedProvider":"openai","selectedModel":"no-such-model"}"#)
        #expect(send.status == 200, "\(send.text)")
        #expect(try shown() == defaultPair)
    }

    // apps/web/src/app/api/drives/route.ts with listAccessibleDrives (drive-service.ts:142-155):
    // each drive is its whole row (schema/core.ts:17-32) with isOwned, role and lastAccessedAt.
    @Test func theDrivesAreTheirWholeRows() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let drives = try #require(try server.request("GET", "/api/drives", headers: Self.session).json() as? [[String: Any]])
        #expect(drives.map { $0["id"] as? String } == ["drivedemo", "driveteam"])
        for drive in drives {
            #expect(drive["kind"] as? String == "STANDARD" && drive["isOwned"] as? Bool == true && drive["role"] as? String == "OWNER")
            for column in ["trashedAt", "drivePrompt", "publishSubdomain", "homePageId", "publishDefaultOgImageUrl",
                           "notFoundPageId", "publishFaviconUrl", "lastAccessedAt"] {
                #expect(drive[column] is NSNull, "\(column): \(drive)")
            }
        }
    }
}
