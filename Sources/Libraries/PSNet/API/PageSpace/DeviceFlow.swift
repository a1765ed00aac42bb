import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// The OAuth 2.0 device authorization grant (RFC 8628) as PageSpace runs it, for
/// `ps-auth login --device`: the discovery document names the endpoints; the device
/// authorization (`client_id=pagespace-cli`, `scope`) gives a user code to type at the
/// verification URL, in any browser on any machine; the token endpoint is polled every
/// `interval` seconds (5 more after each `slow_down`) until the user approves, denies, or
/// the code expires. A drive-scoped grant (`drive:<id>` scopes and a `name:` for the key)
/// answers with an MCP key (`token_type: "mcp"`); any other with an OAuth access token
/// (`ps_at_…`), which reaches no AI route.
/// (apps/web/src/app/api/oauth/device_authorization/route.ts, .../oauth/token/route.ts,
/// packages/lib/src/auth/oauth/metadata.ts)
public struct DeviceFlow {
    public static let clientID = "pagespace-cli"

    /// What the user must do, shown on stderr.
    public struct Prompt: Sendable {
        public let userCode: String
        public let verificationURI: String
        public let verificationURIComplete: String?
        public let expiresIn: Int
    }

    public struct Token: Sendable {
        public let accessToken: String
        public let tokenType: String
    }

    let client: APIClient
    /// Waits between polls (seconds); tests of the library may replace it.
    var sleep: (Double) throws -> Void = DeviceFlow.interruptibleSleep

    public init(client: APIClient) { self.client = client }

    /// The scope of a drive-scoped key: `drive:<id>` for each drive and the key's name.
    public static func scope(drives: [String], keyName: String) -> String? {
        guard !drives.isEmpty else { return nil }
        return (drives.map { "drive:" + $0 } + ["name:" + URLText.encodeComponent(keyName)]).joined(separator: " ")
    }

    public func run(scope: String?, show: (Prompt) -> Void) throws -> Token {
        let endpoints = try discover()
        var fields = [("client_id", Self.clientID)]
        if let scope { fields.append(("scope", scope)) }
        let start = try answer(client.formRequest(endpoints.device, fields: fields))
        guard start.status == 200 else {
            throw Self.refusal(start.json["error"]?.stringValue, status: start.status, step: "the device authorization")
        }
        guard let deviceCode = start.json["device_code"]?.stringValue, let userCode = start.json["user_code"]?.stringValue,
              let uri = start.json["verification_uri"]?.stringValue else {
            throw Self.malformed(start.json, step: "the device authorization", needs: ["device_code", "user_code", "verification_uri"])
        }
        let expiresIn = Int(start.json["expires_in"]?.intValue ?? 1800)
        show(Prompt(
            userCode: userCode, verificationURI: uri,
            verificationURIComplete: start.json["verification_uri_complete"]?.stringValue, expiresIn: expiresIn))
        var interval = Double(start.json["interval"]?.intValue ?? 5)
        let poll = [
            ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", deviceCode),
            ("client_id", Self.clientID),
        ]
        while true {
            try sleep(interval)
            let reply = try answer(client.formRequest(endpoints.token, fields: poll))
            if reply.status == 200 {
                guard let token = reply.json["access_token"]?.stringValue else {
                    throw Self.malformed(reply.json, step: "the token request", needs: ["access_token"])
                }
                // A token is sent in a header and printed by `ps-auth token`: visible ASCII only
                // (RFC 6750's b64token is narrower still).
                guard !token.isEmpty, token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                    throw ToolError(.serverError,
                        "the server's answer to the token request is malformed: its access_token is not a token "
                            + "(it holds spaces, control characters or other than ASCII); nothing was stored")
                }
                return Token(accessToken: token, tokenType: reply.json["token_type"]?.stringValue ?? "Bearer")
            }
            switch reply.json["error"]?.stringValue {
            case "authorization_pending": continue
            case "slow_down": interval += 5
            case let error: throw Self.refusal(error, status: reply.status, step: "the token request")
            }
        }
    }

    private func discover() throws -> (device: String, token: String) {
        let metadata = try? client.get("/.well-known/oauth-authorization-server")
        func path(_ key: String, _ fallback: String) -> String {
            metadata?[key]?.stringValue.map { URLText.path(of: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? fallback
        }
        return (path("device_authorization_endpoint", "/api/oauth/device_authorization"),
                path("token_endpoint", "/api/oauth/token"))
    }

    private func answer(_ request: HTTPRequest) throws -> (status: Int, json: JSON) {
        let response = try client.response(request)
        if response.status == 429 { throw APIErrors.toolError(response, request: request) }
        return (response.status, (try? JSON.parse(bytes: response.body)) ?? .null)
    }

    /// A 200 answer without the fields RFC 8628 requires (sections 3.2 and 3.5): named, as a
    /// server error.
    static func malformed(_ json: JSON, step: String, needs fields: [String]) -> ToolError {
        guard json.objectValue != nil else {
            return ToolError(.serverError, "the server's answer to \(step) is malformed: not a JSON object")
        }
        let missing = fields.filter { json[$0]?.stringValue == nil }
        return ToolError(.serverError,
            "the server's answer to \(step) is malformed: no \(missing.joined(separator: ", ")) (a string is required)")
    }

    static func refusal(_ error: String?, status: Int, step: String) -> ToolError {
        switch error {
        case "access_denied":
            return ToolError(.authenticationNeeded, "the login was denied in the browser; nothing was stored")
        case "expired_token":
            return ToolError(.authenticationNeeded, "the code expired before it was approved; run ps-auth login --device again")
        case "invalid_scope":
            return ToolError(.usage, "the server refused the scope (a drive grant needs a key name; all drives cannot be granted)")
        case "invalid_client":
            return ToolError(.failure, "the server does not know the client \(clientID)")
        case let error?:
            return ToolError(.authenticationNeeded, "\(step) failed: \(TerminalSafeText.sanitize(error))")
        case nil:
            if status >= 500 { return ToolError(.serverError, "\(step) failed: server error \(status)") }
            if status == 404 { return ToolError(.notFound, "this server has no device login (\(step): 404)") }
            return ToolError(.failure, "\(step) failed with status \(status)")
        }
    }

    /// Sleeps in short steps so that Ctrl-C is seen at once.
    static func interruptibleSleep(_ seconds: Double) throws {
        var left = seconds
        repeat {
            if Interrupt.isRequested { throw ToolError(.interrupted, "interrupted") }
            let step = min(left, 0.1)
            if step > 0 { usleep(UInt32(step * 1_000_000)) }
            left -= step
        } while left > 0
        if Interrupt.isRequested { throw ToolError(.interrupted, "interrupted") }
    }
}
