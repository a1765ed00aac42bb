import PSCore

/// The current API's streams in flight (session tokens only): `GET /api/ai/chat/stream-join/
/// {messageId}?fromSeq=N` (apps/web/src/app/api/ai/chat/stream-join/[messageId]/route.ts)
/// and `GET /api/ai/chat/active-streams?scope=user` (…/active-streams/route.ts).
extension PageSpaceAdapter: StreamResuming {
    public var canResumeStreams: Bool { client.session.credentials?.token.hasPrefix("ps_sess_") == true }

    public func joinRequest(messageID: String, fromSeq: Int) -> HTTPRequest {
        client.request("GET", "/api/ai/chat/stream-join/" + URLText.encodeComponent(messageID),
                       query: [("fromSeq", String(fromSeq))], headers: [("Accept", "text/event-stream")])
    }

    public func activeStreams() throws -> [JSON] {
        guard canResumeStreams else {
            throw ToolError(.forbidden, "only a session token (ps_sess_) can list the replies in flight; an MCP key cannot")
        }
        return try client.get("/api/ai/chat/active-streams", query: [("scope", "user")])["streams"]?.arrayValue ?? []
    }
}
