import Foundation
import Testing
import TestSupport

/// Credentials as today's server treats them: which kind of token reaches which route.
@Suite(.serialized) struct AuthCommandTests {
    @Test func anMCPKeyDoesWhatItCanAndIsRefusedClearlyWhereItCannot() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(extra: [
            "PAGESPACE_TOKEN": LocalServer.mcpKey, "PAGESPACE_API_URL": server.baseURL, "PAGESPACE_API_KIND": "pagespace",
        ])
        let status = try sandbox.run("ps-auth", ["status"])
        #expect(status.status == 0, "\(status.stdoutText)\(status.stderrText)")
        #expect(status.stdoutText.contains("reaches: Page AI agents and their history\n"))
        #expect(status.stdoutText.contains("drives: ") && status.stdoutText.contains("drivedemo"))
        #expect(status.stdoutText.contains("works: yes"))

        let agent = try sandbox.run("ps-send", ["--page", "page_agent_demo", "--conversation", "demoagentconversation", "hello agent"])
        #expect(agent.status == 0, "\(agent.stderrText)")
        let history = try sandbox.run("ps-history", ["--page", "page_agent_demo", "--conversation", "demoagentconversation"])
        #expect(history.status == 0)
        #expect(try Records.parse(history.stdoutText).contains { Records.text(of: $0) == "hello agent" })
        let list = try sandbox.run("ps-history", ["--list", "--agent", "page_agent_demo"])
        #expect(Records.ids(try Records.parse(list.stdoutText)).contains("demoagentconversation"), "\(list.stderrText)")

        // The Global assistant: exit 4, and the way out named.
        let global = try sandbox.run("ps-send", ["hello global"])
        #expect(global.status == 4)
        #expect(global.stderrText.contains("MCP tokens are not permitted"))
        #expect(global.stderrText.contains("ps-send --page") && global.stderrText.contains("session token"))
        #expect(!global.stderrText.contains(LocalServer.mcpKey))
    }

    @Test func anMCPKeyCanBeStoredWithLogin() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let login = try sandbox.run("ps-auth", ["login", "--with-token", "--server", server.baseURL], stdin: LocalServer.mcpKey + "\n")
        #expect(login.status == 0, "\(login.stderrText)")
        #expect(login.stderrText.contains("not the Global assistant"))
        #expect(try sandbox.run("ps-auth", ["status"]).stdoutText.contains("works: yes"))
        let wrong = try sandbox.run("ps-auth", ["login", "--with-token", "--server", server.baseURL], stdin: "mcp_not-a-key\n")
        #expect(wrong.status == 4)
    }

    @Test func theServerAppliesTheTokenTable() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let me = try server.request("GET", "/api/auth/me", headers: ["Authorization": "Bearer " + LocalServer.mcpKey])
        #expect(me.status == 401)
        #expect(try me.jsonObject()["error"] as? String == "MCP tokens are not permitted for this endpoint")
        let drives = try server.request("GET", "/api/drives", headers: ["Authorization": "Bearer " + LocalServer.mcpKey])
        #expect(drives.status == 200)
        let lower = try server.request("GET", "/api/auth/me", headers: ["Authorization": "bearer " + LocalServer.sessionToken])
        #expect(lower.status == 401)
        #expect(lower.text == "Authentication required")
        let oauth = try server.request("GET", "/api/ai/global/active", headers: ["Authorization": "Bearer ps_at_x"])
        #expect(try oauth.jsonObject()["error"] as? String == "OAuth tokens are not permitted for this endpoint")
        // A prefix the middleware does not know never reaches the route (middleware.ts:175-184,365-366).
        let garbage = try server.request("GET", "/api/auth/me", headers: ["Authorization": "Bearer xyz"])
        #expect(garbage.status == 401 && garbage.text == "Authentication required")
        #expect(garbage.headers["content-type"] == "text/plain")
    }

    /// Refusals in the real bodies reach the user clearly: the middleware's plain text for a
    /// token of no known prefix (apps/web/src/middleware.ts:175-184,365-366), the route's JSON
    /// for an expired session (lib/auth/index.ts:480). Exit 4, the server's words, no token.
    @Test func refusalsInEitherBodyAreClear() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        for (token, words) in [("xyz-not-a-token", "Authentication required"), ("ps_sess_expired", "Invalid or expired session")] {
            let run = try sandbox.run("ps-history", ["--list"], env: [
                "PAGESPACE_TOKEN": token, "PAGESPACE_API_URL": server.baseURL, "PAGESPACE_API_KIND": "pagespace",
            ])
            #expect(run.status == 4, "\(run.stderrText)")
            #expect(run.stderrText.hasPrefix("ps-history: authentication needed: \(words) ("), "\(run.stderrText)")
            #expect(!run.stderrText.contains(token))
            #expect(run.stdoutText.isEmpty)
        }
    }

    /// The legacy API's conversation routes allow JWTs only (ai_conversations/*.ts AUTH_OPTIONS
    /// at 458264c5b; lib/auth/index.ts:234-239): an MCP key there is told to log in with a password.
    @Test func aLegacyMCPKeyIsToldToLogInWithAPassword() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy")
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let send = try sandbox.run("ps-send", ["hello"], env: [
            "PAGESPACE_TOKEN": LocalServer.mcpKey, "PAGESPACE_API_URL": server.baseURL, "PAGESPACE_API_KIND": "pagespace-legacy",
        ])
        #expect(send.status == 4)
        #expect(send.stderrText.contains("MCP tokens are not permitted") && send.stderrText.contains("ps-auth login --email"),
                "\(send.stderrText)")
        #expect(!send.stderrText.contains(LocalServer.mcpKey))
    }

    /// `ps-auth login --device` with the server's answer armed as `spec`.
    static func deviceLogin(_ server: LocalServer, _ sandbox: NetworkSandbox, _ spec: String, _ extra: [String]) throws -> ProcessResult {
        let armed = try server.request("POST", "/_test/device", body: spec)
        #expect(armed.status == 200, "\(armed.text)")
        return try sandbox.run("ps-auth", ["login", "--device", "--server", server.baseURL] + extra)
    }

    @Test func deviceLoginGrantsAnMCPKeyForADrive() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let login = try Self.deviceLogin(
            server, sandbox, #"{"outcome":"approve","afterPolls":2,"interval":0}"#, ["--drive", "drivedemo", "--name", "ci box"])
        #expect(login.status == 0, "\(login.stderrText)")
        #expect(login.stderrText.contains("/activate") && login.stderrText.contains("enter the code"))
        // USER_CODE_ALPHABET (packages/lib/src/auth/oauth/user-code.ts); DEVICE_CODE_TTL_SECONDS = 1800.
        #expect(login.stderrText.range(of: "[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}", options: .regularExpression) != nil)
        #expect(login.stderrText.contains("the code expires in 30 minutes"))
        let stored = try String(contentsOfFile: sandbox.credentialsPath, encoding: .utf8)
        #expect(stored.contains("mcp_"))
        let mode = try FileManager.default.attributesOfItem(atPath: sandbox.credentialsPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try sandbox.run("ps-auth", ["status"]).stdoutText.contains("reaches: Page AI agents"))
        // The server accepted the request (client id, drive scope with the key's name: a
        // drive grant without a name is refused with invalid_scope).
        #expect(try server.requestLog().contains { ($0["path"] as? String) == "/api/oauth/device_authorization" && ($0["status"] as? Int ?? 200) == 200 })
        // Three polls: two pending, then the key.
        #expect(try server.requestLog().filter { ($0["path"] as? String) == "/api/oauth/token" }.count == 3)
    }

    /// A fake xdg-open that records its arguments, one per line, in `log`.
    static func fakeOpener(in sandbox: NetworkSandbox) throws -> (path: String, log: String) {
        let folder = sandbox.directory + "/bin"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let log = sandbox.directory + "/xdg-open.log"
        let script = folder + "/xdg-open"
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '\(log)'\n".write(toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        return (folder + ":/usr/bin:/bin", log)
    }

    /// apps/web/src/app/api/oauth/device_authorization/route.ts: verification_uri_complete is
    /// opened, the only argument; over SSH or without a display nothing is.
    @Test func deviceLoginOpensTheBrowserWhereOneCanBeOpened() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let (path, log) = try Self.fakeOpener(in: sandbox)
        let approve = #"{"outcome":"approve","afterPolls":1,"interval":0}"#
        try server.request("POST", "/_test/device", body: approve)
        let login = try sandbox.run("ps-auth", ["login", "--device", "--server", server.baseURL, "--drive", "drivedemo"],
                                    env: ["PATH": path, "DISPLAY": ":0"])
        #expect(login.status == 0, "\(login.stderrText)")
        // ps-auth does not wait for the browser it starts: its log may come a moment later.
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: log), Date() < deadline { usleep(20_000) }
        let opened = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        let code = try #require(login.stderrText.range(of: "[0-9A-Z]{4}-[0-9A-Z]{4}", options: .regularExpression))
        #expect(opened == [server.baseURL + "/activate?user_code=" + login.stderrText[code]], "\(opened)")
        #expect(login.stderrText.contains("Opened " + server.baseURL + "/activate"))

        try FileManager.default.removeItem(atPath: log)
        for env in [["PATH": path, "DISPLAY": ":0", "SSH_CONNECTION": "10.0.0.1 50000 10.0.0.2 22"], ["PATH": path]] {
            try server.request("POST", "/_test/device", body: approve)
            let remote = try sandbox.run("ps-auth", ["login", "--device", "--server", server.baseURL, "--drive", "drivedemo"], env: env)
            #expect(remote.status == 0, "\(remote.stderrText)")
            #expect(!FileManager.default.fileExists(atPath: log), "\(env)")
            #expect(remote.stderrText.contains("/activate") && !remote.stderrText.contains("Opened"))
        }
    }

    @Test func deviceLoginRefusalsAreClear() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let denied = try Self.deviceLogin(server, sandbox, #"{"outcome":"deny","interval":0}"#, ["--drive", "drivedemo"])
        #expect(denied.status == 4 && denied.stderrText.contains("denied"))
        let expired = try Self.deviceLogin(server, sandbox, #"{"outcome":"expire","interval":0}"#, ["--drive", "drivedemo"])
        #expect(expired.status == 4 && expired.stderrText.contains("expired"))
        // No drive: the grant could only be an OAuth access token, which reaches no AI route
        // (and with no scope at all one the server refuses everywhere: parseScopeList('') is
        // empty_scope, packages/lib/src/auth/oauth/scopes.ts:143-145). Refused before the user
        // is asked to approve anything: a usage error naming --drive, no request made.
        try server.clearRequestLog()
        let oauth = try Self.deviceLogin(server, sandbox, #"{"outcome":"approve","interval":0}"#, [])
        #expect(oauth.status == 2)
        #expect(oauth.stderrText.contains("--device needs --drive ID"), "\(oauth.stderrText)")
        #expect(!oauth.stderrText.contains("enter the code"))
        #expect(try !server.requestLog().contains { ($0["path"] as? String)?.hasPrefix("/api/oauth") == true })
        #expect(!FileManager.default.fileExists(atPath: sandbox.credentialsPath))
        // A drive ID outside the scope grammar (/^[a-z0-9]{1,32}$/, scopes.ts:12) is named
        // before any request, rather than reported as the server's bare invalid_scope.
        for bad in ["drive_demo", "DriveDemo", String(repeating: "a", count: 33)] {
            let refused = try Self.deviceLogin(server, sandbox, #"{"outcome":"approve","interval":0}"#, ["--drive", bad])
            #expect(refused.status == 2)
            #expect(refused.stderrText.contains("--drive \"\(bad)\": not a drive ID"), "\(refused.stderrText)")
        }
        #expect(try !server.requestLog().contains { ($0["path"] as? String)?.hasPrefix("/api/oauth") == true })
    }

    @Test func deviceLoginSlowsDownWhenAsked() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let started = Date()
        let login = try Self.deviceLogin(
            server, sandbox, #"{"outcome":"approve","afterPolls":1,"slowDownAtPoll":1,"interval":0}"#, ["--drive", "drivedemo"])
        #expect(login.status == 0, "\(login.stderrText)")
        // slow_down adds five seconds to the interval before the next poll.
        #expect(Date().timeIntervalSince(started) >= 5)
    }

    @Test func errorsPointTheRightWay() throws {
        let sandbox = try NetworkSandbox()
        // A mistyped scheme: a usage error at once, no retries.
        let typo = try sandbox.run("ps-auth", ["status", "--server", "htp://127.0.0.1:9"])
        #expect(typo.status == 2)
        #expect(typo.stderrText.contains("must start with https:// or http://"))
        #expect(!typo.stderrText.contains("retrying"))

        let server = try LocalServer.start()
        defer { server.stop() }
        // https:// against a plain-HTTP server: said plainly, not a certificate hint.
        let tls = try sandbox.run(
            "ps-auth", ["login", "--with-token", "--server", server.baseURL.replacingOccurrences(of: "http://", with: "https://")],
            stdin: LocalServer.sessionToken + "\n")
        #expect(tls.status == 9)
        #expect(tls.stderrText.contains("does not speak TLS"), "\(tls.stderrText)")

        // A credential of one API generation against the other: which one the server speaks.
        let legacy = try LocalServer.start(dialect: "pagespace-legacy")
        defer { legacy.stop() }
        let (token, _) = try legacy.legacyLogin()
        let wrong = try sandbox.run("ps-history", ["--list"], env: [
            "PAGESPACE_TOKEN": token, "PAGESPACE_API_URL": legacy.baseURL, "PAGESPACE_API_KIND": "pagespace",
        ])
        #expect(wrong.status == 6)
        #expect(wrong.stderrText.contains("speaks the pagespace-legacy API"), "\(wrong.stderrText)")
        // Detection asks /api/version: the current server names itself.
        let version = try server.request("GET", "/api/version")
        #expect(try version.jsonObject()["service"] as? String == "pagespace-web")
    }
}
