import Hummingbird
import PSCore

/// The gemini dialect's auth middleware (packages/mobile-api src/middleware/auth.ts:31-61 at
/// 1fabb479): an Authorization header not starting "Bearer " is a 401 `{"error":"Missing or
/// invalid Authorization header"}`, a token Firebase does not verify a 401 `{"error":"Invalid
/// or expired token"}`; `/health` needs none. Here only the demo ID token verifies.
enum GeminiAuth {
    /// A Firebase ID token's shape (a JWT whose claims name the demo user), never expiring.
    static let demoToken =
        "eyJhbGciOiJSUzI1NiIsImtpZCI6InBzLWxvY2FsLXNlcnZlciIsInR5cCI6IkpXVCJ9"
        + ".eyJpc3MiOiJodHRwczovL3NlY3VyZXRva2VuLmdvb2dsZS5jb20vcHMtbG9jYWwtZGVtbyIsImF1ZCI6InBzLWxvY2FsLWRlbW8i"
        + "LCJzdWIiOiJ1c2VyX2RlbW8iLCJ1c2VyX2lkIjoidXNlcl9kZW1vIiwibmFtZSI6IkRlbW8gVXNlciIsImVtYWlsIjoiZGVtb0Bl"
        + "eGFtcGxlLmNvbSIsImlhdCI6MTc2MTk4NzYwMCwiZXhwIjo0MTAyNDQ0ODAwfQ"
        + ".cHMtbG9jYWwtc2VydmVyLWRlbW8tc2lnbmF0dXJl"

    static let missingHeader = "Missing or invalid Authorization header"
    static let invalidToken = "Invalid or expired token"

    /// `authHeader.slice(7)` of a header starting "Bearer " (auth.ts:42-48).
    static func token(_ request: Request) -> String? {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return nil }
        return String(header.dropFirst(7))
    }

    static func require(_ request: Request) throws {
        guard let token = token(request) else { throw Refusal(status: .unauthorized, error: missingHeader) }
        guard token == demoToken else { throw Refusal(status: .unauthorized, error: invalidToken) }
    }
}

/// What Express itself answers, outside any route: its default 404 page for a path no route
/// has, and the error page of its final handler (NODE_ENV=production: the status's words only)
/// for a body express.json() cannot parse.
enum ExpressPages {
    static func page(_ message: String, status: HTTPResponse.Status) -> Response {
        let html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>Error</title>
            </head>
            <body>
            <pre>\(escape(message))</pre>
            </body>
            </html>

            """
        return Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// `Cannot GET /path`, after the auth middleware (app.use(authMiddleware) runs first).
    static func notFound(_ request: Request) -> Response {
        do {
            try GeminiAuth.require(request)
        } catch let refusal as Refusal {
            return refusal.response
        } catch {}
        return page("Cannot \(request.method.rawValue) \(request.uri.path)", status: .notFound)
    }

    static func badRequest() -> Refusal { Refusal(page("Bad Request", status: .badRequest)) }

    /// An error a route throws outside its try (Express 5 catches the rejected promise): the
    /// final handler's 500 page.
    static func internalError() -> Refusal { Refusal(page("Internal Server Error", status: .internalServerError)) }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

extension Request {
    /// express.json({limit: '1mb'}) of Express 5 (src/server.ts:38; package.json: express
    /// ^5.1.0, body-parser 2): a JSON body, parsed before the auth middleware runs; `{}` for an
    /// empty one sent as JSON; nil (req.body left undefined) for one not sent as JSON
    /// (Content-Type); one over 1 MiB is the final handler's 413 page; one that is not a JSON
    /// object or array (its strict mode) its 400 page.
    mutating func expressJSONBody() async throws -> JSON? {
        let isJSON = headers[.contentType].map { $0.lowercased().contains("json") } ?? false
        guard isJSON else {
            _ = try await collectBody(upTo: 4 << 20)
            return nil
        }
        let buffer: ByteBuffer
        do {
            buffer = try await collectBody(upTo: 1 << 20)
        } catch {
            throw Refusal(ExpressPages.page("Payload Too Large", status: .contentTooLarge))
        }
        guard buffer.readableBytes > 0 else { return .object(JSONObject()) }
        let bytes = Array(buffer.readableBytesView)
        let first = bytes.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "["), let json = try? JSON.parse(bytes: bytes) else {
            throw ExpressPages.badRequest()
        }
        return json
    }
}
