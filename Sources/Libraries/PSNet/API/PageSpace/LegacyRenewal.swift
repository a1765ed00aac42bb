import PSCore

/// The legacy API's JWT lives 15 minutes (generateAccessToken, packages/lib/src/auth-utils.ts:
/// 120-128 at 458264c5b). A 401 to it is answered by `POST /api/auth/mobile/refresh
/// {deviceToken, deviceId, platform}` (apps/web/src/app/api/auth/mobile/refresh/route.ts:17-130),
/// which gives a new JWT and CSRF token, and the device token again, rotated (the old one
/// revoked at once: rotateDeviceToken, packages/lib/src/device-auth-utils.ts:367-416) when it
/// nears its end: all three are kept in credentials.json at once. So a stored login is renewed
/// by one process or thread at a time, under a lock beside credentials.json; one that waited
/// takes the login the other stored instead of renewing with a device token now revoked.
enum LegacyRenewal {
    static func renew(_ client: APIClient) throws -> Credentials? {
        let session = client.session
        guard var old = session.credentials, old.deviceToken != nil, old.deviceID != nil else { return nil }
        var lock: StateFileLock?
        if case .file = session.credentialsSource {
            lock = try StateFileLock(statePath: session.paths.credentials, wait: 30, command: "ps-tools renewing the login")
            if let stored = try CredentialStore.load(session.paths.credentials)[session.profileName], (stored.origin ?? old.origin) == old.origin {
                if stored.token != old.token { return stored }  // renewed meanwhile
                old = stored
            }
        }
        defer { withExtendedLifetime(lock) {} }
        guard let deviceToken = old.deviceToken, let deviceID = old.deviceID else { return nil }
        let request = anonymousPost(client, "/api/auth/mobile/refresh", body: [
            "deviceToken": .string(deviceToken), "deviceId": .string(deviceID), "platform": "desktop",
        ])
        let response: HTTPResponse
        do {
            response = try client.http.send(request)
        } catch let failure as TransferFailure {
            throw APIErrors.toolError(failure, request: request)
        }
        if response.status == 401 || response.status == 400 {
            let reason = ErrorBody(response.body).summary ?? "refused"
            throw ToolError(.authenticationNeeded,
                "the login to \(session.server) has expired and could not be renewed (\(TerminalSafeText.sanitize(reason))); "
                    + "log in again: ps-auth login --email ADDRESS --profile \(session.profileName)")
        }
        guard response.head.isSuccess else { throw APIErrors.toolError(response, request: request) }
        guard let json = try? JSON.parse(bytes: response.body), let token = json["token"]?.stringValue, !token.isEmpty else {
            throw ToolError(.serverError, "POST /api/auth/mobile/refresh: the server's answer has no token")
        }
        var renewed = old
        renewed.token = token
        renewed.csrfToken = json["csrfToken"]?.stringValue ?? old.csrfToken
        renewed.deviceToken = json["deviceToken"]?.stringValue ?? deviceToken
        try session.keepRenewed(renewed, replacing: old)
        return renewed
    }

    /// A JSON POST without the stored token and CSRF token (the login routes take neither).
    static func anonymousPost(_ client: APIClient, _ path: String, body: JSON) -> HTTPRequest {
        var request = client.request("POST", path, body: body)
        request.headers.removeAll { $0.name == "Authorization" || $0.name == "X-CSRF-Token" }
        return request
    }
}

extension Session {
    /// Puts a renewed credential in place of the stored one it renews (credentials.json, 0600,
    /// bound to the same server); one given otherwise (PAGESPACE_TOKEN) is renewed for this run only.
    func keepRenewed(_ renewed: Credentials, replacing old: Credentials) throws {
        guard case .file = credentialsSource else { return }
        var store = try CredentialStore.load(paths.credentials)
        guard let stored = store[profileName], stored.token == old.token else { return }
        var bound = renewed
        bound.origin = stored.origin ?? Origin(url: server)
        store[profileName] = bound
        try store.save(paths.credentials)
    }
}
