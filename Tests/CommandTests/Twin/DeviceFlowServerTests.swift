import Foundation
import Testing
import TestSupport

/// The OAuth device flow on ps-local-server as the current server runs it:
/// apps/web/src/app/api/well-known/oauth-authorization-server/route.ts with
/// packages/lib/src/auth/oauth/metadata.ts, apps/web/src/app/api/oauth/device_authorization/route.ts,
/// apps/web/src/app/api/oauth/token/route.ts, and the access token's check in
/// apps/web/src/lib/auth/index.ts:279-372.
@Suite struct DeviceFlowServerTests {
    static let form = ["Content-Type": "application/x-www-form-urlencoded"]

    static func start(_ server: LocalServer, scope: String?) throws -> HTTPReply {
        var body = "client_id=pagespace-cli"
        if let scope { body += "&scope=" + (scope.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? scope) }
        return try server.request("POST", "/api/oauth/device_authorization", headers: form, body: body)
    }

    /// The token endpoint's answer once the "user" has approved a grant of `scope`.
    static func approvedToken(_ server: LocalServer, scope: String?) throws -> [String: Any] {
        #expect(try server.request("POST", "/_test/device", body: #"{"outcome":"approve","interval":0}"#).status == 200)
        let started = try start(server, scope: scope)
        #expect(started.status == 200, "\(started.text)")
        let code = try #require(try started.jsonObject()["device_code"] as? String)
        let token = try server.request(
            "POST", "/api/oauth/token", headers: form,
            body: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&client_id=pagespace-cli&device_code=\(code)")
        #expect(token.status == 200, "\(token.text)")
        #expect(token.headers["cache-control"] == "no-store")
        return try token.jsonObject()
    }

    /// metadata.ts:10-23,57-72: every field of the RFC 8414 document; route.ts:15-20 its caching.
    @Test func theDiscoveryDocumentIsWhole() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let reply = try server.request("GET", "/.well-known/oauth-authorization-server")
        #expect(reply.status == 200)
        #expect(reply.headers["cache-control"] == "public, max-age=300, s-maxage=300")
        let document = try reply.jsonObject()
        #expect(Set(document.keys) == [
            "issuer", "authorization_endpoint", "token_endpoint", "device_authorization_endpoint", "revocation_endpoint",
            "grant_types_supported", "response_types_supported", "code_challenge_methods_supported",
            "token_endpoint_auth_methods_supported", "scopes_supported",
        ])
        #expect(document["issuer"] as? String == server.baseURL)
        #expect(document["revocation_endpoint"] as? String == server.baseURL + "/api/oauth/revoke")
        #expect(document["response_types_supported"] as? [String] == ["code"])
        #expect(document["code_challenge_methods_supported"] as? [String] == ["S256"])
        #expect(document["token_endpoint_auth_methods_supported"] as? [String] == ["none"])
        #expect(document["scopes_supported"] as? [String] == ["account", "offline_access", "manage_keys", "drive:*"])
    }

    /// device_authorization/route.ts:25-139: a form body, a known client, a scope that parses
    /// (scopes.ts:142-313), then a code good for DEVICE_CODE_TTL_SECONDS = 1800
    /// (code-lifecycle.ts:28) and a user code of USER_CODE_ALPHABET (user-code.ts).
    @Test func theDeviceAuthorizationChecksAndAnswersAsTheRealOne() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let reply = try Self.start(server, scope: "drive:drivedemo name:ci%20box")
        #expect(reply.status == 200)
        #expect(reply.headers["cache-control"] == "no-store")
        let object = try reply.jsonObject()
        #expect(object["expires_in"] as? Int == 1800)
        #expect(object["interval"] as? Int == 5)
        let userCode = try #require(object["user_code"] as? String)
        #expect(userCode.range(of: "^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$", options: .regularExpression) != nil, "\(userCode)")
        #expect(object["verification_uri"] as? String == server.baseURL + "/activate")
        #expect(object["verification_uri_complete"] as? String == server.baseURL + "/activate?user_code=" + userCode)

        let json = try server.request("POST", "/api/oauth/device_authorization", headers: ["Content-Type": "application/json"],
                                      body: #"{"client_id":"pagespace-cli"}"#)
        #expect(json.status == 400)
        #expect(try json.jsonObject()["error"] as? String == "invalid_request")
        let noClient = try server.request("POST", "/api/oauth/device_authorization", headers: Self.form, body: "scope=account")
        #expect(try noClient.jsonObject()["error"] as? String == "invalid_request")
        let stranger = try server.request("POST", "/api/oauth/device_authorization", headers: Self.form, body: "client_id=other")
        #expect(try stranger.jsonObject()["error"] as? String == "invalid_client")
        // offline_access_alone, a nameless drive grant (route.ts:95-97), all_drives (86-88),
        // account with a drive, a word the grammar lacks, a double space, a drive id outside
        // RESOURCE_ID_RE /^[a-z0-9]{1,32}$/ (scopes.ts:12).
        for scope in ["offline_access", "drive:drivedemo", "all_drives", "account drive:drivedemo", "everything", "account  offline_access",
                      "drive:drive_demo name:x", "drive:Drivedemo name:x", "drive:\(String(repeating: "a", count: 33)) name:x"] {
            let refused = try Self.start(server, scope: scope)
            #expect(refused.status == 400, "\(scope)")
            #expect(try refused.jsonObject()["error"] as? String == "invalid_scope", "\(scope)")
        }
        // The token endpoint's own checks (route.ts:179-199,419-425,457-476).
        let grant = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code"
        let unknownClient = try server.request("POST", "/api/oauth/token", headers: Self.form, body: grant + "&client_id=other&device_code=x")
        #expect(try unknownClient.jsonObject()["error"] as? String == "invalid_grant")
        let noCode = try server.request("POST", "/api/oauth/token", headers: Self.form, body: grant + "&client_id=pagespace-cli")
        #expect(try noCode.jsonObject()["error"] as? String == "invalid_request")
        // The authorization-code grant (route.ts:287-322): its four fields, then the client;
        // a code this server never issued is invalid_grant. A device code is generateToken's
        // (device_authorization/route.ts:103).
        let exchange = "grant_type=authorization_code&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcallback&code_verifier=v"
        for (body, error) in [
            (exchange + "&client_id=pagespace-cli", "invalid_request"),
            (exchange + "&client_id=other&code=c", "invalid_grant"),
            (exchange + "&client_id=pagespace-cli&code=c&client_secret=s", "invalid_request"),
            (exchange + "&client_id=pagespace-cli&code=c", "invalid_grant"),
        ] {
            let answer = try server.request("POST", "/api/oauth/token", headers: Self.form, body: body)
            #expect(answer.status == 400)
            #expect(try answer.jsonObject()["error"] as? String == error, "\(body)")
        }
        let started = try Self.start(server, scope: nil)
        #expect((try started.jsonObject()["device_code"] as? String)?.hasPrefix("ps_dc_") == true, "\(started.text)")
    }

    /// oauth-repository.ts:853-882 with issue-tokens.ts:69-95 and token/route.ts:56-64: a refresh
    /// token only when offline_access was granted, and then the access token works.
    @Test func offlineAccessBringsARefreshToken() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let offline = try Self.approvedToken(server, scope: "account offline_access")
        #expect(offline["token_type"] as? String == "Bearer")
        #expect(offline["expires_in"] as? Int == 900)
        #expect((offline["refresh_token"] as? String)?.hasPrefix("ps_rt_") == true)
        #expect(offline["scope"] as? String == "account offline_access")
        let access = try #require(offline["access_token"] as? String)
        #expect(access.hasPrefix("ps_at_"))
        #expect(try server.request("GET", "/api/auth/me", headers: ["Authorization": "Bearer " + access]).status == 200)

        let online = try Self.approvedToken(server, scope: "account")
        #expect(online["refresh_token"] == nil)
        #expect(online.keys.contains("refresh_token") == false)
    }

    /// issue-tokens.ts:21,36 (ACCESS_TOKEN_TTL_SECONDS) and validateOAuthAccessToken
    /// (apps/web/src/lib/auth/index.ts:310-312): an access token stops working when it
    /// expires; its refresh token gets a new one.
    @Test func anAccessTokenExpires() throws {
        let server = try LocalServer.start(extraArguments: ["--oauth-token-seconds", "1", "--quiet"])
        defer { server.stop() }
        let pair = try Self.approvedToken(server, scope: "account offline_access")
        #expect(pair["expires_in"] as? Int == 1)
        let access = try #require(pair["access_token"] as? String)
        #expect(try server.request("GET", "/api/auth/me", headers: ["Authorization": "Bearer " + access]).status == 200)
        Thread.sleep(forTimeInterval: 1.2)
        let expired = try server.request("GET", "/api/auth/me", headers: ["Authorization": "Bearer " + access])
        #expect(expired.status == 401)
        #expect(try expired.jsonObject()["error"] as? String == "Invalid OAuth access token")
        let renewed = try Self.refresh(server, try #require(pair["refresh_token"] as? String)).jsonObject()
        let next = try #require(renewed["access_token"] as? String)
        #expect(try server.request("GET", "/api/auth/me", headers: ["Authorization": "Bearer " + next]).status == 200)
    }

    static func refresh(_ server: LocalServer, _ token: String, scope: String? = nil) throws -> HTTPReply {
        var body = "grant_type=refresh_token&client_id=pagespace-cli&refresh_token=\(token)"
        if let scope { body += "&scope=" + (scope.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? scope) }
        return try server.request("POST", "/api/oauth/token", headers: form, body: body)
    }

    /// token/route.ts:333-379 with oauth-repository.ts:535-660 and refresh-rotation.ts:79-111:
    /// a refresh token is good once (presented again at once: invalid_grant, the grace
    /// window's cache miss); a narrower scope may be asked for, a wider one is invalid_scope
    /// (scopes.ts:364-414); revoking the grant ends its refresh tokens.
    @Test func aRefreshTokenRotatesOnce() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let first = try Self.approvedToken(server, scope: "account offline_access")
        let refreshToken = try #require(first["refresh_token"] as? String)

        let wider = try Self.refresh(server, refreshToken, scope: "account offline_access manage_keys")
        #expect(wider.status == 400)
        #expect(try wider.jsonObject()["error"] as? String == "invalid_scope")

        let rotated = try Self.refresh(server, refreshToken)
        #expect(rotated.status == 200, "\(rotated.text)")
        #expect(rotated.headers["cache-control"] == "no-store")
        let pair = try rotated.jsonObject()
        let next = try #require(pair["refresh_token"] as? String)
        #expect(next != refreshToken && next.hasPrefix("ps_rt_"))
        #expect(pair["scope"] as? String == "account offline_access" && pair["expires_in"] as? Int == 900)
        let access = try #require(pair["access_token"] as? String)
        #expect(try server.request("GET", "/api/auth/me", headers: ["Authorization": "Bearer " + access]).status == 200)

        let again = try Self.refresh(server, refreshToken)
        #expect(again.status == 400)
        #expect(try again.jsonObject()["error"] as? String == "invalid_grant")

        // Narrowed to account alone: an access token and no refresh token.
        let narrowed = try Self.refresh(server, next, scope: "account").jsonObject()
        #expect(narrowed["scope"] as? String == "account" && narrowed["refresh_token"] == nil)

        let unknown = try Self.refresh(server, "ps_rt_nonesuch")
        #expect(try unknown.jsonObject()["error"] as? String == "invalid_grant")
        let stranger = try server.request(
            "POST", "/api/oauth/token", headers: Self.form, body: "grant_type=refresh_token&client_id=other&refresh_token=x")
        #expect(try stranger.jsonObject()["error"] as? String == "invalid_grant")

        // Revoking the grant (account/oauth-grants/[grantId]) ends the family.
        let other = try Self.approvedToken(server, scope: "account offline_access")
        let otherRefresh = try #require(other["refresh_token"] as? String)
        let session = ["Authorization": "Bearer " + LocalServer.sessionToken]
        let grants = try #require(try server.request("GET", "/api/account/oauth-grants", headers: session).json() as? [[String: Any]])
        let newest = try #require(grants.last?["id"] as? String)
        // A step-up token is bound to its action and grant ([grantId]/route.ts:43-50).
        let minted = try server.request(
            "POST", "/_test/step-up", body: #"{"actionBinding":{"op":"revoke_oauth_grant","grantId":"\#(newest)"}}"#)
        let stepUp = try #require(try minted.jsonObject()["stepUpToken"] as? String)
        let revoked = try server.request(
            "DELETE", "/api/account/oauth-grants/\(newest)", headers: session.merging(["Content-Type": "application/json"]) { $1 },
            body: #"{"stepUpToken":"\#(stepUp)"}"#)
        #expect(revoked.status == 200, "\(revoked.text)")
        #expect(try Self.refresh(server, otherRefresh).jsonObject()["error"] as? String == "invalid_grant")
    }

    /// refresh-rotation.ts:85-96: a rotated token presented again after REFRESH_GRACE_WINDOW_MS
    /// (30 s, refresh-rotation.ts:18) is reuse: the whole family ends (revokeTokenFamily), the
    /// access token and the newest refresh token with it.
    @Test func aRefreshTokenReusedAfterTheGraceWindowEndsItsFamily() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let first = try Self.approvedToken(server, scope: "account offline_access")
        let spent = try #require(first["refresh_token"] as? String)
        let pair = try Self.refresh(server, spent).jsonObject()
        let newest = try #require(pair["refresh_token"] as? String)
        let access = try #require(pair["access_token"] as? String)
        Thread.sleep(forTimeInterval: 31)
        #expect(try Self.refresh(server, spent).jsonObject()["error"] as? String == "invalid_grant")
        #expect(try Self.refresh(server, newest).jsonObject()["error"] as? String == "invalid_grant")
        let me = try server.request("GET", "/api/auth/me", headers: ["Authorization": "Bearer " + access])
        #expect(me.status == 401)
        #expect(try me.jsonObject()["error"] as? String == "Invalid OAuth access token")
    }

    /// A grant asked for with no scope is stored with none; validateOAuthAccessToken re-parses
    /// the stored scopes (lib/auth/index.ts:320-324) and parseScopeList('') is empty_scope
    /// (scopes.ts:143-145), so the token it gets is refused everywhere.
    @Test func aTokenGrantedWithNoScopeIsRefusedEverywhere() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let granted = try Self.approvedToken(server, scope: nil)
        #expect(granted["scope"] as? String == "")
        let token = try #require(granted["access_token"] as? String)
        #expect(token.hasPrefix("ps_at_"))
        for path in ["/api/auth/me", "/api/drives"] {
            let reply = try server.request("GET", path, headers: ["Authorization": "Bearer " + token])
            #expect(reply.status == 401, "\(path)")
            #expect(try reply.jsonObject()["error"] as? String == "Invalid OAuth access token", "\(path)")
        }
    }

    /// account/oauth-grants/route.ts with listActiveOAuthGrantsForUser and findOAuthGrantById
    /// (oauth-repository.ts:898-930): a grant is its family's live refresh-token row. Without
    /// offline_access there is none to list; a refresh replaces the row (:615-645), so the id
    /// listed changes and the old one is no longer revoked here; narrowed to drop
    /// offline_access, nothing is left to list.
    @Test func theGrantsListedAreTheLiveRefreshTokens() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let session = ["Authorization": "Bearer " + LocalServer.sessionToken]
        func listed() throws -> [String] {
            (try server.request("GET", "/api/account/oauth-grants", headers: session).json() as? [[String: Any]] ?? [])
                .compactMap { $0["id"] as? String }
        }
        _ = try Self.approvedToken(server, scope: "account")
        _ = try Self.approvedToken(server, scope: "drive:drivedemo name:Notes")
        #expect(try listed() == ["grant_demo"])

        let offline = try Self.approvedToken(server, scope: "account offline_access")
        let first = try listed()
        #expect(first.count == 2)
        let before = try #require(first.last)
        let rotated = try Self.refresh(server, try #require(offline["refresh_token"] as? String)).jsonObject()
        let after = try listed()
        #expect(after.count == 2 && after.last != before, "\(after)")
        let minted = try server.request(
            "POST", "/_test/step-up", body: #"{"actionBinding":{"op":"revoke_oauth_grant","grantId":"\#(before)"}}"#)
        let stepUp = try #require(try minted.jsonObject()["stepUpToken"] as? String)
        let stale = try server.request(
            "DELETE", "/api/account/oauth-grants/\(before)", headers: session, body: #"{"stepUpToken":"\#(stepUp)"}"#)
        #expect(stale.status == 404)
        #expect(try stale.jsonObject()["error"] as? String == "Grant not found")

        let narrowed = try Self.refresh(server, try #require(rotated["refresh_token"] as? String), scope: "account")
        #expect(narrowed.status == 200)
        #expect(try listed() == ["grant_demo"])
    }
}
