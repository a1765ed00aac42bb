import PSCore

/// What a server shows itself to be, asked with no credential. The current PageSpace names
/// itself on `GET /api/version` (`{service:"pagespace-web"}`). The late-2025 one has no such
/// route, but its public `POST /api/auth/login` answers a body with no fields with zod's field
/// errors (`400 {"errors":{"email":[…],"password":[…]}}`, apps/web/src/app/api/auth/login/
/// route.ts:20-38 at 458264c5b), checked before any rate limit or lookup; today's server has
/// no such route. A server that does neither is no PageSpace, whatever its 404s say.
enum GenerationProbe {
    enum Answer: Equatable {
        case speaks(APIKind)
        case notPageSpace
    }

    /// Asks the server; a transfer that fails throws its ToolError.
    static func ask(_ client: APIClient) throws -> Answer {
        var headers: [(name: String, value: String)] = [("Accept", "application/json")] + client.commonHeaders
        let version = try client.response(HTTPRequest(method: "GET", url: client.url("/api/version"), headers: headers, body: nil))
        if version.head.isSuccess, (try? JSON.parse(bytes: version.body))?["service"]?.stringValue == "pagespace-web" {
            return .speaks(.pagespace)
        }
        headers.append(("Content-Type", "application/json"))
        let login = try client.response(
            HTTPRequest(method: "POST", url: client.url("/api/auth/login"), headers: headers, body: Array("{}".utf8)))
        if login.status == 400, let errors = (try? JSON.parse(bytes: login.body))?["errors"],
            errors["email"] != nil || errors["password"] != nil
        {
            return .speaks(.pagespaceLegacy)
        }
        return .notPageSpace
    }

    /// The line for an address where no PageSpace answers (the URL without any userinfo).
    static func notPageSpace(_ server: String) -> String {
        "no PageSpace server answers at \(URLText.withoutUserinfo(server)) (GET /api/version and the legacy "
            + "POST /api/auth/login answer as neither generation); check --server or PAGESPACE_API_URL, "
            + "or pass --api for another kind of server"
    }
}
