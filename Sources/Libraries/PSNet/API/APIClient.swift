import PSCore

/// Requests to one server with one session: URLs, the headers every request carries, JSON
/// bodies, and the mapping of failures to one clear line and a shared exit status.
public final class APIClient {
    /// Its credentials change when an expired one is renewed (`renewal`).
    public private(set) var session: Session
    public let http: HTTPClient
    /// Sent on every request (an API version header, say).
    public var commonHeaders: [(name: String, value: String)] = []
    /// Sent on POST, PATCH and DELETE only (the legacy API's CSRF token).
    public var mutationHeaders: [(name: String, value: String)] = []
    /// Whether to send `Authorization: Bearer` (off for a password login).
    public var sendsToken = true
    /// The API's own words for some failures (nil: the shared ones).
    public var errorWording: APIErrorWording?
    /// Says more about a refusal, asking the server when it must (an OpenAI-compatible server
    /// names its models for one it does not know): given the refusal in the shared words.
    public var refusalNote: ((APIClient, HTTPResponse, HTTPRequest, ToolError) -> ToolError)?
    /// Whether a 404 asks `GET /api/version` which PageSpace generation the server speaks
    /// (off for an API that is no PageSpace).
    public var probesGenerationOnNotFound = true
    /// Renews the credential after a 401 (the legacy API's device token): the new credentials,
    /// or nil when there is no way to renew. It keeps them where they are stored.
    public var renewal: ((APIClient) throws -> Credentials?)?

    public init(session: Session, http: HTTPClient) {
        self.session = session
        self.http = http
    }

    /// `server + path + ?query`, with the query's values percent-encoded; nil values are left out.
    public func url(_ path: String, query: [(String, String?)] = []) -> String {
        var result = session.server + path
        var separator = "?"
        for (name, value) in query {
            guard let value else { continue }
            result += separator + name + "=" + URLText.encodeComponent(value)
            separator = "&"
        }
        return result
    }

    public func request(
        _ method: String, _ path: String, query: [(String, String?)] = [], body: JSON? = nil,
        headers extra: [(name: String, value: String)] = []
    ) -> HTTPRequest {
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if sendsToken, let token = session.credentials?.token { headers.append(("Authorization", "Bearer " + token)) }
        headers += commonHeaders
        if method != "GET" && method != "HEAD" { headers += mutationHeaders }
        var bytes: [UInt8]?
        if let body {
            headers.append(("Content-Type", "application/json"))
            var out: [UInt8] = []
            body.write(to: &out)
            bytes = out
        }
        headers += extra
        return HTTPRequest(method: method, url: url(path, query: query), headers: headers, body: bytes)
    }

    /// What a 404 means here, asked of the server with no credential (GenerationProbe): the
    /// other API generation, or no PageSpace at all at this address; nil when the server is
    /// the generation in use or gives no answer.
    /// `otherGenerationOnly`: nil unless the server is PageSpace of the other generation (for a
    /// 401, which today's server also gives to a legacy route asked with a legacy token).
    func generationNote(otherGenerationOnly: Bool = false) -> String? {
        guard let answer = try? GenerationProbe.ask(self) else { return nil }
        guard case .speaks(let speaks) = answer else {
            return otherGenerationOnly ? nil : GenerationProbe.notPageSpace(session.server)
        }
        guard let using = session.api, using != speaks else { return nil }
        return "this server speaks the \(speaks.rawValue) API, not \(using.rawValue); "
            + "log in again for it, or pass --api \(speaks.rawValue)"
    }

    /// The one line and exit status for a refused request (not 2xx): the API's wording, and
    /// what `refusalNote` adds.
    public func refusal(_ response: HTTPResponse, request: HTTPRequest) -> ToolError {
        let error = APIErrors.toolError(response, request: request, wording: errorWording)
        return refusalNote?(self, response, request, error) ?? error
    }

    /// A form-encoded POST without the stored token (OAuth endpoints take their own fields).
    public func formRequest(_ path: String, fields: [(String, String)]) -> HTTPRequest {
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        headers += commonHeaders
        headers.append(("Content-Type", "application/x-www-form-urlencoded"))
        let body = fields.map { URLText.encodeComponent($0.0) + "=" + URLText.encodeComponent($0.1) }.joined(separator: "&")
        return HTTPRequest(method: "POST", url: url(path), headers: headers, body: Array(body.utf8))
    }

    /// Sends a request (GETs with retries) and returns the response, whatever its status. A
    /// 401 to the stored credential is answered once by renewing it and asking again.
    public func response(_ request: HTTPRequest) throws -> HTTPResponse {
        let response = try send(request)
        guard response.status == 401, let renewed = try renewedRequest(request) else { return response }
        return try send(renewed)
    }

    private func send(_ request: HTTPRequest) throws -> HTTPResponse {
        do {
            return try http.send(request)
        } catch let failure as TransferFailure {
            throw APIErrors.toolError(failure, request: request, wording: errorWording)
        }
    }

    /// `request` again with a renewed credential, after the server refused the one it carried
    /// (401); nil when it carried none of ours or the API cannot renew.
    public func renewedRequest(_ request: HTTPRequest) throws -> HTTPRequest? {
        guard let renewal, let old = session.credentials,
              request.headers.contains(where: { $0.name == "Authorization" && $0.value == "Bearer " + old.token }),
              let renewed = try renewal(self)
        else { return nil }
        session.credentials = renewed
        mutationHeaders = mutationHeaders.map { $0.name == "X-CSRF-Token" ? ($0.name, renewed.csrfToken ?? $0.value) : $0 }
        var again = request
        again.headers = request.headers.map { header in
            switch header.name {
            case "Authorization": return (header.name, "Bearer " + renewed.token)
            case "X-CSRF-Token": return (header.name, renewed.csrfToken ?? header.value)
            default: return header
            }
        }
        return again
    }

    /// Sends a request and returns its JSON answer; a non-2xx answer throws its ToolError.
    public func json(_ request: HTTPRequest) throws -> JSON {
        try json(request, response: try response(request))
    }

    /// The JSON answer of a response already received for `request`; non-2xx throws its ToolError.
    public func json(_ request: HTTPRequest, response: HTTPResponse) throws -> JSON {
        guard response.head.isSuccess else {
            // Perhaps the credential was made for the other API generation: then the route is
            // not there at all. Ask the server which generation it speaks.
            let error = refusal(response, request: request)
            if response.status == 404, probesGenerationOnNotFound, let note = generationNote() { throw ToolError(.notFound, error.message + "; " + note) }
            // Today's middleware answers a legacy route, asked with a legacy token, 401 in plain
            // text (middleware.ts:340-342): the route is not there for that token either.
            if response.status == 401, probesGenerationOnNotFound, let note = generationNote(otherGenerationOnly: true) {
                throw ToolError(.notFound, error.message + "; " + note)
            }
            throw error
        }
        if response.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .null }
        do {
            return try JSON.parse(bytes: response.body)
        } catch {
            throw ToolError(.serverError, "\(request.method) \(URLText.path(of: request.url)): the server's answer is not JSON")
        }
    }

    public func get(_ path: String, query: [(String, String?)] = []) throws -> JSON {
        try json(request("GET", path, query: query))
    }

    public func post(_ path: String, body: JSON? = .object(JSONObject())) throws -> JSON {
        try json(request("POST", path, body: body))
    }
}

/// Percent-encoding for URLs we build from ids and user input.
public enum URLText {
    public static func encodeComponent(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                 UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                result += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return result
    }

    /// The path of a URL without scheme, host and query: for messages.
    public static func path(of url: String) -> String {
        var rest = Substring(url)
        rest = afterScheme(rest)
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        rest = rest[slash...]
        if let question = rest.firstIndex(of: "?") { rest = rest[..<question] }
        return String(rest)
    }

    /// `host[:port]` of a URL: for messages.
    public static func host(of url: String) -> String {
        var rest = Substring(url)
        rest = afterScheme(rest)
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }  // never echo userinfo
        return String(rest)
    }

    /// The URL with any `user:password@` taken out: for messages.
    public static func withoutUserinfo(_ url: String) -> String {
        let rest = afterScheme(Substring(url))
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<rest.startIndex]) + String(rest[rest.index(after: at)...])
    }

    private static func afterScheme(_ url: Substring) -> Substring {
        let bytes = Array(url.utf8)
        guard bytes.count >= 3 else { return url }
        for i in 0..<(bytes.count - 2) where bytes[i] == 0x3A && bytes[i + 1] == 0x2F && bytes[i + 2] == 0x2F {
            return Substring(url.utf8.dropFirst(i + 3))
        }
        return url
    }
}
