import HTTPTypes
import Hummingbird
import PSCore

/// The current server's Next.js middleware as it stands in front of the API routes
/// (apps/web/src/middleware.ts): it checks only that a credential is there, never that it is
/// good. A bearer token with a known prefix goes on to the route (middleware.ts:175-184); so
/// does any request to a public path (276-324); anything else under /api (no token, "bearer"
/// in lower case, a prefix it does not know) is a PLAIN-TEXT 401 "Authentication required"
/// (334-366, middleware/security-headers.ts:54-74). This server has no cookie sessions, so
/// the session cookie that would also let a request through is never there.
struct EdgeGate: RouterMiddleware {
    typealias Context = ServerContext

    /// middleware.ts:41-43 (lib/auth/token-prefixes.ts:15-17).
    static let bearerPrefixes = ["Bearer mcp_", "Bearer ps_sess_", "Bearer ps_at_"]

    /// middleware.ts:291 and 294-314, the entries for routes this server has (the others
    /// would only change an unknown path's 404 into a 401): a prefix, then exact paths.
    static let publicPrefixes = ["/api/drives"]
    static let publicPaths: Set = [
        "/api/oauth/token", "/api/oauth/device_authorization", "/api/auth/logout", "/api/ai/models", "/api/version",
    ]

    /// API_CORS_HEADERS (middleware/security-headers.ts:269-274).
    static let corsHeaders: HTTPFields = [
        HTTPField.Name("Access-Control-Allow-Origin")!: "*",
        HTTPField.Name("Access-Control-Allow-Methods")!: "GET, POST, PATCH, DELETE, PUT, OPTIONS",
        HTTPField.Name("Access-Control-Allow-Headers")!: "Authorization, Content-Type, X-PageSpace-API-Version",
        HTTPField.Name("Access-Control-Expose-Headers")!: "X-PageSpace-API-Version, Retry-After",
    ]

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard path.hasPrefix("/api") else { return try await next(request, context) }
        // middleware.ts:163-165: a CORS preflight is answered here, whatever the path.
        if request.method == .options { return Response(status: .noContent, headers: Self.corsHeaders) }
        // middleware.ts:175-184: a bearer token of a known prefix goes on, with the CORS headers.
        if let header = request.headers[.authorization], Self.bearerPrefixes.contains(where: header.hasPrefix) {
            var response = try await next(request, context)
            for field in Self.corsHeaders { response.headers[field.name] = field.value }
            return response
        }
        guard Self.publicPaths.contains(path) || Self.publicPrefixes.contains(where: path.hasPrefix) else {
            return Self.authenticationRequired()
        }
        return try await next(request, context)
    }

    /// createSecureErrorResponse('Authentication required', 401) (security-headers.ts:45-74):
    /// a string body is sent as text/plain, with the error-response security headers.
    static func authenticationRequired() -> Response {
        Response(
            status: .unauthorized,
            headers: [
                .contentType: "text/plain",
                .contentSecurityPolicy: "default-src 'none'; frame-ancestors 'none'",
                HTTPField.Name("X-Frame-Options")!: "DENY",
                HTTPField.Name("X-Content-Type-Options")!: "nosniff",
                HTTPField.Name("Referrer-Policy")!: "strict-origin-when-cross-origin",
                HTTPField.Name("Permissions-Policy")!: #"geolocation=(), microphone=(self), camera=(), payment=(self "https://js.stripe.com")"#,
                HTTPField.Name("X-PageSpace-API-Version")!: "1.0.0",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: "Authentication required")))
    }
}
