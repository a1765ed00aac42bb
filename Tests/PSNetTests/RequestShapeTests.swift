import PSCore
import Testing
@testable import PSNet

@Suite struct RequestShapeTests {
    func session(_ credentials: Credentials?, api: APIKind) -> Session {
        Session(profileName: "default", paths: ConfigPaths(environment: ["HOME": "/nonexistent"]), config: ConfigFile(),
                server: "http://127.0.0.1:8080", serverSource: .builtIn, api: api, apiSource: nil,
                credentials: credentials, credentialsSource: nil)
    }

    func adapter(_ kind: APIKind, csrf: String? = nil) -> APIAdapter {
        let client = APIClient(session: session(Credentials(token: "tok", csrfToken: csrf), api: kind), http: HTTPClient())
        return APIAdapters.make(kind, client: client)
    }

    func body(_ request: HTTPRequest) throws -> JSON { try JSON.parse(bytes: request.body ?? []) }
    func header(_ request: HTTPRequest, _ name: String) -> String? {
        HTTPResponseHead(status: 0, headers: request.headers).header(name)
    }

    @Test func userMessageIsAUIMessageWithAClientID() {
        let message = UserMessage.make(text: "Hi", id: "m1")
        #expect(message == ["id": "m1", "role": "user", "parts": [["type": "text", "text": "Hi"]]])
        let generated = UserMessage.make(text: "x")["id"]!.stringValue!
        #expect(generated.count == 16)
        #expect(generated != UserMessage.make(text: "x")["id"]!.stringValue!)
    }

    @Test func browserSessionIDsMatchTheServersPattern() {
        let id = RandomID.browserSessionID()
        #expect((1...64).contains(id.count))
        #expect(id.utf8.allSatisfy { RandomID.urlSafe.contains($0) })
    }

    @Test func currentGlobalSend() throws {
        let options = SendOptions(provider: "openai", model: "gpt-4o", location: .drive(driveID: "d1"),
                                  browserSessionID: "bs_1")
        let message = UserMessage.make(text: "Hi", id: "m1")
        let request = try adapter(.pagespace).sendRequest(.global(conversationID: "c 1"), message: message, options: options)
        #expect(request.method == "POST")
        #expect(request.url == "http://127.0.0.1:8080/api/ai/global/c%201/messages")
        #expect(header(request, "X-Browser-Session-Id") == "bs_1")
        #expect(header(request, "Authorization") == "Bearer tok")
        #expect(header(request, "X-CSRF-Token") == nil)
        #expect(header(request, "Content-Type") == "application/json")
        #expect(try body(request) == [
            "messages": [message], "selectedProvider": "openai", "selectedModel": "gpt-4o",
            "contextRef": ["routeType": "drive", "driveId": "d1"],
        ])
    }

    @Test func currentPageAISend() throws {
        let message = UserMessage.make(text: "Hi", id: "m1")
        let request = try adapter(.pagespace).sendRequest(
            .agent(pageID: "p1", conversationID: nil), message: message,
            options: SendOptions(location: .page(pageID: "p1", driveID: nil), browserSessionID: "bs_2"))
        #expect(request.url == "http://127.0.0.1:8080/api/ai/chat")
        #expect(header(request, "X-Browser-Session-Id") == "bs_2")
        // No conversationId: the server starts a new conversation. Absent keys are absent, not null.
        #expect(try body(request) == ["messages": [message], "chatId": "p1", "contextRef": ["routeType": "page", "pageId": "p1"]])
    }

    @Test func legacySendsCarryCSRFAndNoBrowserSession() throws {
        let legacy = adapter(.pagespaceLegacy, csrf: "csrf-1")
        let message = UserMessage.make(text: "Hi", id: "m1")
        let request = try legacy.sendRequest(.global(conversationID: "c1"), message: message, options: SendOptions())
        #expect(request.url == "http://127.0.0.1:8080/api/ai_conversations/c1/messages")
        #expect(header(request, "X-CSRF-Token") == "csrf-1")
        #expect(header(request, "X-Browser-Session-Id") == nil)
        #expect(try body(request) == ["messages": [message]])
        let page = try legacy.sendRequest(.agent(pageID: "p1", conversationID: "c2"), message: message, options: SendOptions())
        #expect(try body(page) == ["messages": [message], "chatId": "p1", "conversationId": "c2"])
        let located = try legacy.sendRequest(
            .agent(pageID: "p1", conversationID: "c2"), message: message,
            options: SendOptions(location: .page(pageID: "p1", driveID: "d1")))
        #expect(try body(located)["pageContext"] == ["pageId": "p1", "pageType": "AI_CHAT", "driveId": "d1"])
        // Reads carry no CSRF token.
        #expect(header(legacy.client.request("GET", "/api/ai_conversations/global"), "X-CSRF-Token") == nil)
    }

    @Test func queryValuesAreEncodedAndNilsLeftOut() {
        let client = APIClient(session: session(nil, api: .pagespace), http: HTTPClient())
        #expect(client.url("/x", query: [("cursor", "a&b=c"), ("limit", nil), ("direction", "after")])
            == "http://127.0.0.1:8080/x?cursor=a%26b%3Dc&direction=after")
        // No credential: no Authorization header at all.
        #expect(header(client.request("GET", "/x"), "Authorization") == nil)
    }

    @Test func newConversationIDsHaveCuid2sShape() {
        for _ in 0..<200 {
            let id = RandomID.conversationID()
            #expect(id.count == 24)
            #expect(id.utf8.first.map { (97...122).contains($0) } == true)
            #expect(id.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) })
        }
    }

    @Test func deviceGrantScopes() {
        #expect(DeviceFlow.scope(drives: ["d1", "d2"], keyName: "ci box") == "drive:d1 drive:d2 name:ci%20box")
        #expect(DeviceFlow.scope(drives: [], keyName: "x") == nil)
    }

    @Test func apiKindFromTokenShape() {
        #expect(APIKind.guess(fromToken: "ps_sess_abc") == .pagespace)
        #expect(APIKind.guess(fromToken: "mcp_abc") == .pagespace)
        #expect(APIKind.guess(fromToken: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig") == .pagespaceLegacy)
        #expect(APIKind.guess(fromToken: "something") == nil)
    }

    @Test func historyPageShapes() throws {
        let paged = try HistoryPage.parse(JSON.parse(
            #"{"messages":[{"id":"a"}],"pagination":{"hasMore":true,"nextCursor":"a","prevCursor":null,"limit":1,"direction":"after"}}"#))
        #expect(paged.isPaged && paged.hasMore && paged.nextCursor == "a" && paged.messages.count == 1)
        let bare = try HistoryPage.parse(JSON.parse(#"[{"id":"a"},{"id":"b"}]"#))
        #expect(!bare.isPaged && !bare.hasMore && bare.messages.count == 2)
        #expect(throws: ToolError.self) { try HistoryPage.parse(JSON.parse(#"{"error":"x"}"#)) }
    }
}
