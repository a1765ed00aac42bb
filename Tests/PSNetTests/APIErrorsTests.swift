import PSCore
import Testing
@testable import PSNet

@Suite struct APIErrorsTests {
    let secret = "ps_sess_SECRET-token-value"
    var request: HTTPRequest {
        HTTPRequest(method: "GET", url: "http://127.0.0.1:9/api/ai/global/c1/messages?limit=5",
                    headers: [("Authorization", "Bearer " + secret), ("X-CSRF-Token", "csrf-SECRET")])
    }

    func response(_ status: Int, _ body: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(head: HTTPResponseHead(status: status, headers: headers), body: Array(body.utf8))
    }

    func error(_ status: Int, _ body: String, headers: [(name: String, value: String)] = []) -> ToolError {
        let error = APIErrors.toolError(response(status, body, headers: headers), request: request)
        #expect(!error.message.contains("SECRET"))
        #expect(!error.message.contains("\n"))
        return error
    }

    @Test func statusesMapToSharedExitCodes() {
        #expect(error(401, #"{"error":"Authentication required"}"#).status == .authenticationNeeded)
        #expect(error(401, "Authentication required").status == .authenticationNeeded)
        #expect(error(402, #"{"error":"out_of_credits","message":"No credits left"}"#).status == .rateLimited)
        #expect(error(403, #"{"error":"No permission to send messages"}"#).status == .forbidden)
        #expect(error(404, #"{"error":"Conversation not found"}"#).status == .notFound)
        #expect(error(429, #"{"error":"too_many_in_flight","message":"Slow down"}"#).status == .rateLimited)
        #expect(error(500, "").status == .serverError)
        #expect(error(503, "<html>\nbusy</html>").status == .serverError)
        #expect(error(400, #"{"error":"bad"}"#).status == .failure)
    }

    /// PageSpace's refusal of images for a model without vision is the user's to fix: exit 2,
    /// in the server's words; any other 400 stays a plain refusal.
    @Test func aModelWithoutVisionIsAUsageError() {
        let words = #"The selected model \"glm-4.6\" does not support image attachments. Please choose a vision-capable model."#
        let refused = error(400, #"{"error":"\#(words)"}"#)
        #expect(refused.status == .usage)
        #expect(refused.message.hasPrefix(#"the server refused the images: The selected model "glm-4.6" does not support image attachments."#), "\(refused.message)")
        #expect(refused.message.contains("(GET /api/ai/global/c1/messages)") && refused.message.contains("--model"))
        #expect(error(400, #"{"error":"Image \"x.png\" is not a valid data URL"}"#).status == .failure)
        #expect(error(500, #"{"error":"\#(words)"}"#).status == .serverError)
    }

    @Test func messagesCarryTheServersReasonAndWhere() {
        let notFound = error(404, #"{"error":"Conversation not found"}"#)
        #expect(notFound.message == "not found: Conversation not found (GET /api/ai/global/c1/messages)")
        let credits = error(402, #"{"error":"out_of_credits","message":"No credits left"}"#)
        #expect(credits.message == "out of credits: No credits left (GET /api/ai/global/c1/messages)")
        let mcp = error(401, #"{"error":"MCP tokens are not permitted for this endpoint"}"#)
        #expect(mcp.message.contains("not the Global assistant") && mcp.message.contains("session token"))
        let oauth = error(401, #"{"error":"OAuth tokens are not permitted for this endpoint"}"#)
        #expect(oauth.message.contains("MCP key"))
        // A body may not write to the terminal.
        let hostile = error(500, "{\"error\":\"boom\\u001b[2J\\u0007\"}")
        #expect(!hostile.message.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        let csrf = error(403, #"{"error":"CSRF token missing","code":"CSRF_TOKEN_MISSING"}"#)
        #expect(csrf.message.contains("CSRF token missing") && csrf.message.contains("ps-auth login"))
    }

    /// The current server's middleware refuses in plain text (apps/web/src/middleware.ts:365-366,
    /// middleware/security-headers.ts:54-74): its words, on one line made safe, exit 4.
    @Test func aPlainTextRefusalIsShownSafely() {
        let plain = error(401, "Authentication required")
        #expect(plain.status == .authenticationNeeded)
        #expect(plain.message.hasPrefix("authentication needed: Authentication required (GET /api/ai/global/c1/messages)"),
                "\(plain.message)")
        let hostile = error(401, "Authentication\u{1B}]0;owned\u{07} required\nsecond line")
        #expect(hostile.status == .authenticationNeeded)
        #expect(!hostile.message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(!hostile.message.contains("second line"))
    }

    /// The legacy API refuses an MCP key on its JWT-only routes (lib/auth/index.ts:234-239 at
    /// 458264c5b); the way out there is a password login, not a session token.
    @Test func theLegacyAPIPointsAnMCPKeyToAPasswordLogin() {
        let refused = APIErrors.toolError(
            response(401, #"{"error":"MCP tokens are not permitted for this endpoint"}"#), request: request,
            wording: LegacyErrorWording())
        #expect(refused.status == .authenticationNeeded)
        #expect(refused.message.contains("ps-auth login --email") && !refused.message.contains("ps_sess_"), "\(refused.message)")
        #expect(APIErrors.toolError(response(401, #"{"error":"Invalid or expired session"}"#), request: request,
                                    wording: LegacyErrorWording()).message.contains("Invalid or expired session"))
    }

    @Test func rateLimitDetailsOfBothAPIs() {
        let current = error(429, #"{"error":"too_many_in_flight","message":"Too many requests"}"#,
                            headers: [("Retry-After", "30")])
        #expect(current.message == "rate limited: too_many_in_flight: Too many requests; the server asks to retry after 30s")
        let legacy = error(429, #"{"error":"Rate limit exceeded","rateLimitInfo":{"currentCount":20,"limit":20,"remainingCalls":0,"resetAt":"2025-11-02T00:00:00Z"}}"#)
        #expect(legacy.message == "rate limited: Rate limit exceeded (20 of 20 calls used, 0 left, resets at 2025-11-02T00:00:00Z)")
    }

    @Test func transferFailures() {
        let refused = APIErrors.toolError(.network(message: "Connection refused", afterHead: false), request: request)
        #expect(refused.status == .networkError)
        #expect(refused.message == "cannot reach 127.0.0.1:9: Connection refused")
        let cut = APIErrors.toolError(.network(message: "transfer closed", afterHead: true), request: request)
        #expect(cut.status == .networkError && cut.message.contains("broke during the response"))
        #expect(APIErrors.toolError(.interrupted, request: request).status == .interrupted)
        let tls = APIErrors.toolError(.tls(message: "self-signed certificate"), request: request)
        #expect(tls.status == .networkError && tls.message.contains("--cacert"))
    }

    @Test func hostNeverShowsUserinfo() {
        #expect(URLText.host(of: "https://user:pw@example.com:8443/a?b") == "example.com:8443")
        #expect(URLText.path(of: "https://example.com/api/x?y=1") == "/api/x")
    }
}
