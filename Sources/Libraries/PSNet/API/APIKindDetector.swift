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

    /// Asks the server which generation it is (GenerationProbe); an address where neither
    /// answers is refused as not found, naming it.
    static func probe(session: Session, http: HTTPClient) throws -> APIKind {
        switch try GenerationProbe.ask(APIClient(session: session, http: http)) {
        case .speaks(let kind): return kind
        case .notPageSpace: throw ToolError(.notFound, GenerationProbe.notPageSpace(session.server))
        }
    }
}
