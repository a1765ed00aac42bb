import Foundation
import Testing
import TestSupport

/// The late-2025 server's logins (458264c5b). Its web login, `POST /api/auth/login`
/// (apps/web/src/app/api/auth/login/route.ts:149-178), puts the JWT in an httpOnly cookie and
/// answers `{id, name, email}`; the body with a token comes from `POST /api/auth/mobile/login`
/// (mobile/login/route.ts:17-150), which needs a `deviceId`. The JWT lives 15 minutes
/// (packages/lib/src/auth-utils.ts:120-128) and `POST /api/auth/mobile/refresh` renews it with
/// the device token (mobile/refresh/route.ts), rotated when it nears its end.
@Suite struct LegacyLoginTests {
    static let loginBody = #"{"email":"demo@example.com","password":"demo-password"}"#

    @Test func theWebLoginAnswersNoTokenButACookie() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy")
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let raw = try sandbox.shell(
            "curl -s -D - -H 'Content-Type: application/json' --data '\(Self.loginBody)' \(server.baseURL)/api/auth/login")
        let text = raw.stdoutText
        let cookie = try #require(text.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("set-cookie: accesstoken=") })
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Max-Age=900"))
        #expect(text.lowercased().contains("set-cookie: refreshtoken="))
        let body = try #require(text.components(separatedBy: "\r\n\r\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["id", "name", "email"])
        #expect(object["email"] as? String == LocalServer.email)

        // The cookie's JWT is a login: a read needs no CSRF token.
        let jwt = String(cookie.dropFirst("set-cookie: accessToken=".count).prefix { $0 != ";" })
        let global = try server.request("GET", "/api/ai_conversations/global", headers: ["Cookie": "accessToken=\(jwt)"])
        #expect(global.status == 200)
    }

    @Test func theMobileLoginNeedsADeviceAndAnswersTheTokens() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy")
        defer { server.stop() }
        let noDevice = try server.request("POST", "/api/auth/mobile/login", body: Self.loginBody)
        #expect(noDevice.status == 400)
        let errors = try #require(try noDevice.jsonObject()["errors"] as? [String: Any])
        #expect(errors["deviceId"] as? [String] == ["Invalid input: expected string, received undefined"])
        let badPlatform = try server.request(
            "POST", "/api/auth/mobile/login",
            body: #"{"email":"demo@example.com","password":"demo-password","deviceId":"d1","platform":"web"}"#)
        #expect(badPlatform.status == 400)

        let login = try server.request(
            "POST", "/api/auth/mobile/login",
            body: #"{"email":"demo@example.com","password":"demo-password","deviceId":"d1","platform":"desktop"}"#)
        let object = try login.jsonObject()
        #expect(Set(object.keys) == ["user", "token", "csrfToken", "deviceToken"])
        #expect(Set((object["user"] as? [String: Any])?.keys ?? [:].keys) == ["id", "email", "name", "image"])
    }

    /// The three routes read their body with `await req.json()` inside their try: a body that is
    /// not JSON, or none, ends in the catch-all 500, not a 400 (458264c5b: auth/login/route.ts:33,
    /// 178-181; mobile/login/route.ts:31,152-155; mobile/refresh/route.ts:25,132-135).
    @Test func aBodyThatIsNotJSONIsTheLoginRoutesCatchAll() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy")
        defer { server.stop() }
        for path in ["/api/auth/login", "/api/auth/mobile/login", "/api/auth/mobile/refresh"] {
            for body in ["{bad", ""] {
                let answer = try server.request("POST", path, headers: ["Content-Type": "application/json"], body: body)
                #expect(answer.status == 500, "\(path) \(body)")
                #expect(answer.text == #"{"error":"An unexpected error occurred."}"#, "\(path) \(body): \(answer.text)")
            }
        }
    }

    /// `ps-auth login --email` must log in where a real server gives the token: today's client
    /// read it from the web login's body, which never holds one (exit 8 on a real server).
    @Test func psAuthLogsInAndSendsWithTheMobileLogin() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy")
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let login = try sandbox.login(server)
        #expect(login.status == 0, "\(login.stderrText)")
        let stored = try Self.storedCredential(sandbox)
        #expect((stored["deviceToken"] as? String)?.hasPrefix("dev_") == true)
        #expect((stored["deviceId"] as? String)?.isEmpty == false)
        let send = try sandbox.run("ps-send", ["hello"])
        #expect(send.status == 0, "\(send.stderrText)")
        let log = try server.requestLog().compactMap { $0["path"] as? String }
        #expect(log.contains("/api/auth/mobile/login"))
    }

    /// A JWT that expired is renewed with the device token, which the server rotates; the
    /// rotated one is kept (the old one is revoked), so a second renewal works too.
    @Test func anExpiredLoginIsRenewedAndTheRotatedDeviceTokenKept() throws {
        let server = try LocalServer.start(
            dialect: "pagespace-legacy", extraArguments: ["--legacy-token-seconds", "2", "--legacy-device-token-seconds", "3600"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let first = try Self.storedCredential(sandbox)
        let firstToken = try #require(first["token"] as? String)
        let firstDevice = try #require(first["deviceToken"] as? String)

        Thread.sleep(forTimeInterval: 2.5)
        // The server refuses the expired token...
        let expired = try server.request("GET", "/api/ai_conversations/global", headers: ["Authorization": "Bearer \(firstToken)"])
        #expect(expired.status == 401)
        #expect(try expired.jsonObject()["error"] as? String == "Invalid or expired session")
        // ...and the client renews it by itself.
        let send = try sandbox.run("ps-send", ["after the first expiry"])
        #expect(send.status == 0, "\(send.stderrText)")
        let second = try Self.storedCredential(sandbox)
        #expect(second["token"] as? String != firstToken)
        let secondDevice = try #require(second["deviceToken"] as? String)
        #expect(secondDevice != firstDevice)
        #expect(second["origin"] as? String == first["origin"] as? String)
        let mode = try FileManager.default.attributesOfItem(atPath: sandbox.credentialsPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // The old device token was revoked by the rotation.
        let stale = try server.request(
            "POST", "/api/auth/mobile/refresh",
            body: #"{"deviceToken":"\#(firstDevice)","deviceId":"\#(second["deviceId"] as? String ?? "")","platform":"desktop"}"#)
        #expect(stale.status == 401)

        Thread.sleep(forTimeInterval: 2.5)
        let again = try sandbox.run("ps-send", ["after the second expiry"])
        #expect(again.status == 0, "\(again.stderrText)")
        let list = try sandbox.run("ps-history", ["--list"])
        #expect(list.status == 0, "\(list.stderrText)")
    }

    /// The token runs out between ps-send's reads and its send: the POST itself is refused
    /// 401 as an expired JWT is (here armed once on the send's path, with the words of the
    /// real refusal); ps-send renews with the device token and sends once more, and the reply
    /// streams as if nothing happened.
    @Test func aTokenThatExpiresJustBeforeTheSendIsRenewedAndTheSendGoesThrough() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let before = try #require(try Self.storedCredential(sandbox)["token"] as? String)
        let path = "/api/ai_conversations/\(LocalServer.globalConversationID)/messages"
        let armed = try server.request("POST", "/_test/faults", body: """
            {"status":401,"path":"\(path)","times":1,"body":{"error":"Invalid or expired session"}}
            """)
        #expect(armed.status == 200, "\(armed.text)")
        let send = try sandbox.run("ps-send", ["--conversation", LocalServer.globalConversationID, "just in time"])
        #expect(send.status == 0, "\(send.stderrText)")
        #expect(send.stdoutText.contains(#""type":"finish""#))
        let renewed = try #require(try Self.storedCredential(sandbox)["token"] as? String)
        #expect(renewed != before)
        let log = try server.requestLog().compactMap { entry -> String? in
            guard let p = entry["path"] as? String else { return nil }
            return "\(entry["method"] as? String ?? "") \(p)"
        }
        let posts = log.filter { $0 == "POST " + path }
        #expect(posts.count == 2, "\(log)")
        #expect(log.contains("POST /api/auth/mobile/refresh"), "\(log)")
    }

    /// `ps-auth logout` names the device token to the server's logout, which revokes it: it
    /// can no longer renew the login.
    @Test func logoutRevokesTheDeviceToken() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let stored = try Self.storedCredential(sandbox)
        let device = try #require(stored["deviceToken"] as? String)
        let deviceID = try #require(stored["deviceId"] as? String)
        let logout = try sandbox.run("ps-auth", ["logout"])
        #expect(logout.status == 0, "\(logout.stderrText)")
        let log = try server.requestLog()
        #expect(log.contains { $0["path"] as? String == "/api/auth/logout" && $0["method"] as? String == "POST" }, "\(log)")
        let renewal = try server.request(
            "POST", "/api/auth/mobile/refresh",
            body: #"{"deviceToken":"\#(device)","deviceId":"\#(deviceID)","platform":"desktop"}"#)
        #expect(renewal.status == 401, "\(renewal.text)")
    }

    /// A device token the server no longer knows: one line saying to log in again, exit 4.
    @Test func aRenewalRefusedSaysToLogInAgain() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy", extraArguments: ["--legacy-token-seconds", "1"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let path = sandbox.credentialsPath
        var file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var profiles = try #require(file["profiles"] as? [String: Any])
        let name = try #require(profiles.keys.first)
        var entry = try #require(profiles[name] as? [String: Any])
        entry["deviceToken"] = "dev_unknown"
        profiles[name] = entry
        file["profiles"] = profiles
        try JSONSerialization.data(withJSONObject: file).write(to: URL(fileURLWithPath: path))
        Thread.sleep(forTimeInterval: 1.5)
        let send = try sandbox.run("ps-send", ["hi"])
        #expect(send.status == 4)
        #expect(send.stderrText.contains("could not be renewed"), "\(send.stderrText)")
        #expect(send.stderrText.contains("ps-auth login --email"))
    }

    /// packages/lib/src/rate-limit-utils.ts:35-131,176-181 at 458264c5b, as both logins use it
    /// (mobile/login/route.ts:40-76,108-110): every attempt counts against the client's address
    /// and the email; the sixth in 15 minutes is a 429 with Retry-After, before the password
    /// is looked at; a login that succeeds forgets both counts.
    @Test func theSixthFailedLoginIsRateLimited() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        func login(_ password: String) throws -> ProcessResult {
            try sandbox.run("ps-auth", ["login", "--server", server.baseURL, "--email", LocalServer.email, "--password-stdin"],
                            stdin: password + "\n")
        }
        for _ in 1...4 { #expect(try login("wrong").status == 4) }
        #expect(try login(LocalServer.password).status == 0)  // forgets the four
        for _ in 1...5 { #expect(try login("wrong").status == 4) }
        let limited = try login(LocalServer.password)
        #expect(limited.status == 7, "\(limited.stderrText)")
        #expect(limited.stderrText.contains(
            "rate limited: Too many login attempts from this IP address. Please try again later. The server asks to retry after 900s"),
                "\(limited.stderrText)")
        // From another address the email is over its count too.
        let body = #"{"email":"DEMO@example.com","password":"demo-password","deviceId":"d1"}"#
        let other = try server.request("POST", "/api/auth/mobile/login", headers: ["X-Forwarded-For": "10.0.0.9, 10.0.0.1"], body: body)
        #expect(other.status == 429, "\(other.text)")
        #expect(try other.jsonObject()["error"] as? String == "Too many login attempts for this email. Please try again later.")
        let wait = try #require(Int(other.headers["retry-after"] ?? ""))
        #expect((890...900).contains(wait))
        #expect(try other.jsonObject()["retryAfter"] as? Int == wait)
    }

    /// mobile/refresh/route.ts:34-55 at 458264c5b: renewals count per client address, ten in
    /// five minutes, and a success does not reset them; the eleventh is a 429.
    @Test func theEleventhRenewalInFiveMinutesIsRateLimited() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy", extraArguments: ["--quiet"])
        defer { server.stop() }
        let login = try server.request("POST", "/api/auth/mobile/login",
                                       body: #"{"email":"demo@example.com","password":"demo-password","deviceId":"d1"}"#)
        var device = try #require(try login.jsonObject()["deviceToken"] as? String)
        for round in 1...11 {
            let renewed = try server.request("POST", "/api/auth/mobile/refresh", body: #"{"deviceToken":"\#(device)","deviceId":"d1"}"#)
            if round <= 10 {
                #expect(renewed.status == 200, "round \(round): \(renewed.text)")
                device = try renewed.jsonObject()["deviceToken"] as? String ?? device
            } else {
                #expect(renewed.status == 429, "\(renewed.text)")
                #expect(try renewed.jsonObject()["error"] as? String == "Too many refresh attempts. Please try again later.")
                #expect(renewed.headers["retry-after"] == "300")
            }
        }
    }

    /// rotateDeviceToken revokes the old device token at once (device-auth-utils.ts:367-416 at
    /// 458264c5b): renewals of one stored login take turns, across threads (ps-batch's workers)
    /// and processes, and the ones that waited take the login the first stored.
    @Test func renewalsOfOneLoginTakeTurns() throws {
        let server = try LocalServer.start(
            dialect: "pagespace-legacy",
            extraArguments: ["--quiet", "--legacy-token-seconds", "3", "--legacy-device-token-seconds", "3600"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        Thread.sleep(forTimeInterval: 3.5)
        let jobs = (1...8).map { "{\"id\":\"j\($0)\",\"message\":\"hello \($0)\"}\n" }.joined()
        let batch = try sandbox.run("ps-batch", ["--concurrency", "4"], stdin: jobs)
        #expect(batch.status == 0, "\(batch.stderrText)\n\(batch.stdoutText)")
        Thread.sleep(forTimeInterval: 3.5)
        let both = try sandbox.shell("ps-send one > /dev/null & a=$!; ps-send two > /dev/null & b=$!; wait $a; x=$?; wait $b; echo $x $?")
        #expect(both.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "0 0", "\(both.stderrText)")
        let refused = try server.requestLog().filter {
            ($0["path"] as? String) == "/api/auth/mobile/refresh" && ($0["status"] as? Int ?? 200) != 200
        }
        #expect(refused.isEmpty, "\(refused)")
    }

    static func storedCredential(_ sandbox: NetworkSandbox) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: sandbox.credentialsPath))
        let file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let profiles = try #require(file["profiles"] as? [String: Any])
        return try #require(profiles.values.first as? [String: Any])
    }
}
