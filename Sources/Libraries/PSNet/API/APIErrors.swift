import PSCore

/// Turns what went wrong into one line for stderr and the shared exit status. Server bodies
/// of either API are read for their `error`/`message`, and 429s for their rate-limit details.
/// Nothing here ever includes a request header (the token lives there).
public enum APIErrors {
    public static func toolError(_ response: HTTPResponse, request: HTTPRequest, wording: APIErrorWording? = nil) -> ToolError {
        let where_ = "\(request.method) \(URLText.path(of: request.url))"
        let body = ErrorBody(response.body)
        // The server's words, made safe: a body is not allowed to write to the terminal.
        let reason = body.summary.map { ": " + TerminalSafeText.sanitize($0) } ?? ""
        if let own = wording?.toolError(status: response.status, reason: reason, where: where_) { return own }
        switch response.status {
        case 400 where body.error?.contains("does not support image attachments") == true:
            return ToolError(.usage, "the server refused the images\(reason) (\(where_)); "
                + "send them with --model naming a model that can see images")
        case 401:
            if body.error?.contains("MCP tokens are not permitted") == true {
                return ToolError(.authenticationNeeded,
                    "authentication needed\(reason) (\(where_)): an MCP key reaches Page AI agents (ps-send --page ID), "
                        + "not the Global assistant; for that, log in with a browser session token (the ps_sess_... "
                        + "session cookie): ps-auth login --with-token")
            }
            if body.error?.contains("OAuth tokens are not permitted") == true {
                return ToolError(.authenticationNeeded,
                    "authentication needed\(reason) (\(where_)): an OAuth access token reaches no AI route; "
                        + "get an MCP key with: ps-auth login --device --drive ID")
            }
            return ToolError(.authenticationNeeded,
                "authentication needed\(reason) (\(where_)); " + CommandHints.refusedCredential)
        case 402:
            // PageSpace's credit gate: {error:"out_of_credits", message} (credit-gate-response.ts).
            let words = (body.message ?? body.summary).map { ": " + TerminalSafeText.sanitize($0) } ?? ""
            return ToolError(.rateLimited, "out of credits\(words) (\(where_))")
        case 403 where body.error == "Subscription required":
            return ToolError(.forbidden, "the model needs a paid plan\(reason) (\(where_)); "
                + "the free plan runs only the free models (GET /api/ai/models marks them free)")
        case 403 where body.error == "This token does not have access to this drive":
            // checkMCPDriveScope/checkMCPPageScope on PageSpace: a key scoped to other drives.
            return ToolError(.forbidden, "outside this key's drives\(reason) (\(where_)); a drive-scoped MCP key reaches "
                + "only the pages of its own drives: log in with a key for that drive (ps-auth login --device --drive ID) "
                + "or with one not scoped to drives")
        case 403 where body.error == "You do not have permission to view this AI chat":
            // PageSpace answers a page that does not exist as one the user may not view
            // (page-chat-turn.ts:485-493, canPrincipalViewPage).
            return ToolError(.forbidden, "forbidden\(reason) (\(where_)); the page does not exist or is not shared with you: "
                + "`ps-agents list` lists the agents you can reach")
        case 403:
            if body.code == "CSRF_TOKEN_MISSING" || body.code == "CSRF_TOKEN_INVALID" {
                return ToolError(.forbidden, "forbidden\(reason) (\(where_)); log in again with `ps-auth login` for a new CSRF token")
            }
            return ToolError(.forbidden, "forbidden\(reason) (\(where_))")
        case 404:
            return ToolError(.notFound, "not found\(reason) (\(where_))")
        case 429:
            var text = "rate limited\(reason)"
            if let limit = body.rateLimit { text += " (" + limit + ")" }
            if let retryAfter = response.head.header("Retry-After").flatMap({ RetryAfter.seconds($0) }) {
                // After the server's own sentence ("Please try again later."), a sentence of ours.
                text += (text.hasSuffix(".") ? " The" : "; the") + " server asks to retry after \(HTTPClient.format(retryAfter.rounded(.up)))"
            }
            return ToolError(.rateLimited, text)
        case 300...399:
            // Not followed: a redirect could carry the Authorization header to another server.
            let target = response.head.header("Location").map { " to " + TerminalSafeText.sanitize(String($0.prefix(500))) } ?? " (no Location given)"
            return ToolError(.failure,
                "the server answered with a redirect (status \(response.status))\(target) (\(where_)); redirects are not followed, "
                    + "so that a credential never goes to another address: give that address with --server if it is the server")
        case 500...599:
            return ToolError(.serverError, "server error \(response.status)\(reason) (\(where_))")
        default:
            return ToolError(.failure, "the server refused the request with status \(response.status)\(reason) (\(where_))")
        }
    }

    public static func toolError(_ failure: TransferFailure, request: HTTPRequest, wording: APIErrorWording? = nil) -> ToolError {
        let host = URLText.host(of: request.url)
        if let own = wording?.toolError(failure, host: host) { return own }
        switch failure {
        case .interrupted:
            return ToolError(.interrupted, "interrupted")
        case .network(let message, let afterHead):
            if afterHead {
                return ToolError(.networkError, "the connection to \(host) broke during the response: \(message)")
            }
            return ToolError(.networkError, "cannot reach \(host): \(message)")
        case .cannotConnect(let message):
            return ToolError(.networkError, "cannot reach \(host): \(message)")
        case .unresolved(let message):
            return ToolError(.networkError,
                "cannot find the server \(host): its name does not resolve (\(message)); check the spelling of the server (--server, PAGESPACE_API_URL or the profile's)")
        case .tls(let message) where message.contains("wrong version number") || message.contains("packet length too long"):
            return ToolError(.networkError,
                "\(host) does not speak TLS at this address (\(message)): if it is a plain-HTTP server, use http:// instead of https://")
        case .tls(let message):
            return ToolError(.networkError,
                "TLS verification with \(host) failed: \(message) (give a CA bundle with --cacert; --insecure skips the check)")
        case .proxy(let failure):
            return ToolError(failure.refusedCredentials ? .authenticationNeeded : .networkError, failure.message(server: host))
        case .tooLarge(let limit):
            return ToolError(.serverError,
                "the answer from \(host) is larger than \(limit) bytes; stopped reading it (ps-history can allow more with --max-page-bytes, or take smaller pages with --page-size)")
        }
    }
}

/// An API's own words for some failures (Lucid's "temporarily unavailable"), where they
/// differ from the shared ones; nil keeps the shared wording. An adapter sets it on its client.
public protocol APIErrorWording: Sendable {
    /// `reason` is ": the server's words" (made safe) or empty; `where` is "METHOD /path".
    func toolError(status: Int, reason: String, where: String) -> ToolError?
    func toolError(_ failure: TransferFailure, host: String) -> ToolError?
}

/// The error fields of a response body of either API, or its first line when it is not JSON.
/// A FastAPI server's `{"detail":"…"}` (or its list of validation errors) reads as the message.
struct ErrorBody {
    var error: String?
    var message: String?
    var code: String?
    var rateLimit: String?
    private var text: String?

    init(_ bytes: [UInt8]) {
        guard let json = try? JSON.parse(bytes: bytes), json.objectValue != nil else {
            // An HTML error page (Express's "Cannot GET /path"): the words in its <pre>.
            let page = String(decoding: bytes.prefix(4096), as: UTF8.self)
            if let start = page.firstRange(of: "<pre>"), let end = page[start.upperBound...].firstRange(of: "</pre>") {
                let words = String(page[start.upperBound..<end.lowerBound]).trimmingSpaces
                if !words.isEmpty {
                    text = String(words.prefix(300))
                    return
                }
            }
            let line = String(decoding: bytes.prefix(300), as: UTF8.self).split(separator: "\n").first.map(String.init)
            text = line?.trimmingSpaces.isEmpty == false ? line!.trimmingSpaces : nil
            return
        }
        error = json["error"]?.stringValue ?? json["error"]?["message"]?.stringValue
        message = json["message"]?.stringValue ?? Self.describe(detail: json["detail"]) ?? Self.describe(details: json["details"])
        code = json["code"]?.stringValue
        if let info = json["rateLimitInfo"], info.objectValue != nil { rateLimit = Self.describe(rateLimitInfo: info) }
    }

    /// "too_many_in_flight: Too many requests" / "Authentication required".
    var summary: String? {
        switch (error, message) {
        case let (error?, message?) where error != message: return error + ": " + message
        case let (error?, _): return error
        case let (nil, message?): return message
        default: return text
        }
    }

    /// FastAPI's `detail`: a string, or validation errors `[{loc:[…], msg, type}]` as
    /// "body.user_id: Field required".
    static func describe(detail: JSON?) -> String? {
        if let text = detail?.stringValue { return text }
        guard let errors = detail?.arrayValue, !errors.isEmpty else { return nil }
        return errors.prefix(3).map { error -> String in
            let location = (error["loc"]?.arrayValue ?? []).map { $0.stringValue ?? $0.intValue.map(String.init) ?? "?" }
            let message = error["msg"]?.stringValue ?? "invalid"
            return location.isEmpty ? message : location.joined(separator: ".") + ": " + message
        }.joined(separator: "; ")
    }

    /// Lucid's `details`: zod's refusals `[{field, message}]` as "message: message must be less
    /// than 10000 characters", or a string.
    static func describe(details: JSON?) -> String? {
        if let text = details?.stringValue { return text.isEmpty ? nil : text }
        guard let errors = details?.arrayValue, !errors.isEmpty else { return nil }
        return errors.prefix(3).map { error -> String in
            let message = error["message"]?.stringValue ?? "invalid"
            guard let field = error["field"]?.stringValue, !field.isEmpty else { return message }
            return field + ": " + message
        }.joined(separator: "; ")
    }

    /// The legacy API's `rateLimitInfo{currentCount,limit,remainingCalls,resetAt}` in words.
    static func describe(rateLimitInfo info: JSON) -> String {
        var parts: [String] = []
        if let count = info["currentCount"]?.intValue, let limit = info["limit"]?.intValue {
            parts.append("\(count) of \(limit) calls used")
        } else if let limit = info["limit"]?.intValue {
            parts.append("limit \(limit) calls")
        }
        if let remaining = info["remainingCalls"]?.intValue { parts.append("\(remaining) left") }
        if let reset = info["resetAt"]?.stringValue { parts.append("resets at \(reset)") }
        return parts.joined(separator: ", ")
    }
}
