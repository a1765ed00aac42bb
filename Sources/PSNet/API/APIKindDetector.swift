import PSCore

/// Finds out which API a server speaks when no option, environment variable or profile says:
/// first from the token's shape, then by asking the server. The answer is kept in the profile.
public enum APIKindDetector {
    public static func kind(for session: inout Session, http: HTTPClient) throws -> APIKind {
        if let kind = session.api { return kind }
        if let token = session.credentials?.token, let kind = APIKind.guess(fromToken: token) {
            session.rememberAPI(kind)
            return kind
        }
        let kind = try probe(session: session, http: http)
        session.rememberAPI(kind)
        return kind
    }

    /// The public `GET /api/version` answers `{service:"pagespace-web"}` on the current API
    /// only. Failing a clear answer: `GET /api/auth/me` exists only on the current API; the
    /// legacy one has `/api/ai_conversations/global` instead.
    static func probe(session: Session, http: HTTPClient) throws -> APIKind {
        let client = APIClient(session: session, http: http)
        let version = try client.response(client.request("GET", "/api/version"))
        if version.head.isSuccess, (try? JSON.parse(bytes: version.body))?["service"]?.stringValue == "pagespace-web" {
            return .pagespace
        }
        let me = try client.response(client.request("GET", "/api/auth/me"))
        if me.head.isSuccess { return .pagespace }
        if me.status != 404 && me.status != 405 {
            let legacy = try client.response(client.request("GET", "/api/ai_conversations/global"))
            return legacy.status == 404 ? .pagespace : .pagespaceLegacy
        }
        return .pagespaceLegacy
    }
}
