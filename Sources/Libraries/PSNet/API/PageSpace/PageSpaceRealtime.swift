import PSCore

/// The current API's realtime service: Socket.IO at `/socket.io/` of the server (PageSpace
/// also runs it on its own port, 3001; give that URL with --realtime-url), a `ps_sock_` token
/// from `GET /api/auth/socket-token` (apps/web/src/app/api/auth/socket-token/route.ts: a
/// session only, valid five minutes, so one is fetched for every connection).
extension PageSpaceAdapter: ConversationFollowing {
    public var realtimeEndpoint: String { client.url("/socket.io/") }

    public func realtimeToken() throws -> String {
        let request = client.request("GET", "/api/auth/socket-token")
        let response = try client.response(request)
        if response.status == 401 {
            throw ToolError(.authenticationNeeded,
                "the server gives realtime tokens to a session only (GET /api/auth/socket-token answered 401); "
                    + "an MCP key cannot follow a conversation: log in with a session token (ps-auth login --with-token)")
        }
        guard let token = try client.json(request, response: response)["token"]?.stringValue, !token.isEmpty else {
            throw ToolError(.serverError, "GET /api/auth/socket-token: the answer has no token")
        }
        return token
    }
}
