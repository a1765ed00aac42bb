import Hummingbird
import PSCore

/// Responses with the bodies and headers PageSpace uses.
enum Reply {
    static func json(_ value: JSON, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var bytes: [UInt8] = []
        value.write(to: &bytes)
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func text(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// The dialect's error body for `status`.
    static func error(_ status: Int, dialect: Dialect, headers: HTTPFields = [:]) -> Response {
        json(dialect.errorBody(for: status), status: HTTPResponse.Status(code: status), headers: headers)
    }
}

/// A request the server turns down: handlers throw it, ServerMiddleware answers with it.
struct Refusal: Error {
    let response: Response

    init(_ response: Response) { self.response = response }

    init(status: HTTPResponse.Status, error: String, code: String? = nil) {
        var body = JSONObject()
        body["error"] = .string(error)
        body["code"] = code.map(JSON.string)
        response = Reply.json(.object(body), status: status)
    }

    static func badRequest(_ message: String) -> Refusal { Refusal(status: .badRequest, error: message) }
    static func notFound(_ message: String) -> Refusal { Refusal(status: .notFound, error: message) }
}

extension JSON {
    /// A chat send's `!messages || messages.length === 0` (global-chat-turn.ts:326-329,
    /// page-chat-turn.ts:395-398): absent, null, or an empty array or string is none.
    var hasChatMessages: Bool {
        switch self["messages"] {
        case nil, .null?: return false
        case .array(let items)?: return !items.isEmpty
        case .string(let text)?: return !text.isEmpty
        default: return true
        }
    }
}

extension Request {
    /// The largest body read: room for a message with 5 images of 4 MiB of data URL each
    /// (Next.js route handlers set no body limit of their own).
    static let maxBodyBytes = 32 << 20

    /// The body as JSON; a missing or malformed body is a 400 with a message saying so.
    mutating func jsonBody() async throws -> JSON {
        let buffer = try await collectBody(upTo: Self.maxBodyBytes)
        guard buffer.readableBytes > 0 else { throw Refusal.badRequest("Request body is required") }
        do {
            return try JSON.parse(bytes: Array(buffer.readableBytesView))
        } catch {
            throw Refusal.badRequest("Invalid JSON body: \(error)")
        }
    }

    /// The body of a chat send (both assistants, both generations): one that is not JSON is
    /// the routes' catch-all 500 (handle-chat-turn.ts:218-224, 366-393; the late-2025
    /// generation, 458264c5b, ai/chat/route.ts:95,995-999 and
    /// ai_conversations/[id]/messages/route.ts:203,876-880), and so is `null`, whose fields the
    /// routes read (global-chat-turn.ts:299-302,1578-1622; the late-2025 routes' logging of
    /// `requestBody.messages`). The current Page AI route throws that TypeError outside its
    /// try (handle-chat-turn.ts:295): Next.js's bare 500, here with the same words.
    mutating func chatBody() async throws -> JSON {
        guard let body = try await jsonBodyIfValid(), body != .null else {
            throw Refusal(status: .internalServerError, error: "Failed to process chat request. Please try again.")
        }
        return body
    }

    /// The body as JSON, or nil when it is missing or is not JSON (for routes whose refusal
    /// of such a body has its own wording).
    mutating func jsonBodyIfValid() async throws -> JSON? {
        let buffer = try await collectBody(upTo: Self.maxBodyBytes)
        return try? JSON.parse(bytes: Array(buffer.readableBytesView))
    }

    /// The body as JSON; when it is not JSON, the message of the SyntaxError a Next.js
    /// route's `await request.json()` throws (for routes whose catch-all quotes it).
    mutating func javaScriptJSONBody() async throws -> Result<JSON, JavaScriptParseError.Failure> {
        let bytes = Array(try await collectBody(upTo: Self.maxBodyBytes).readableBytesView)
        guard let json = try? JSON.parse(bytes: bytes) else {
            return .failure(JavaScriptParseError.Failure(message: JavaScriptParseError.message(for: bytes)))
        }
        return .success(json)
    }

    func query(_ name: String) -> String? {
        uri.queryParameters[name[...]].map(String.init)
    }
}
