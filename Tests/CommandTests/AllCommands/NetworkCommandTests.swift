import Foundation
import Testing
import TestSupport

/// ps-auth, ps-send and ps-history as a user runs them: real processes against a real
/// ps-local-server on loopback, in both dialects.
@Suite(.serialized) struct NetworkCommandTests {

    @Test(arguments: LocalServer.dialects) func loginSendAndExportRoundTrip(dialect: String) throws {
        let server = try LocalServer.start(dialect: dialect)
        defer { server.stop() }
        let sandbox = try NetworkSandbox()

        let login = try sandbox.login(server)
        #expect(login.status == 0, "\(login.stderrText)")
        #expect(login.stderrText.contains("Demo User"))
        let mode = try FileManager.default.attributesOfItem(atPath: sandbox.credentialsPath)[.posixPermissions] as! NSNumber
        #expect(mode.intValue == 0o600)
        let stored = try String(contentsOfFile: sandbox.credentialsPath, encoding: .utf8)
        if dialect == "pagespace-legacy" { #expect(stored.contains("csrfToken")) }

        let status = try sandbox.run("ps-auth", ["status"])
        #expect(status.status == 0, "\(status.stderrText)")
        #expect(status.stdoutText.contains("server: \(server.baseURL)"))
        #expect(status.stdoutText.contains("api: \(dialect)\n"))
        #expect(status.stdoutText.contains("user: Demo User <demo@example.com>"))
        #expect(status.stdoutText.contains("credential: from \(sandbox.credentialsPath)"))
        #expect(status.stdoutText.contains("works: yes"))

        let question = "Please make a table of the plan"
        let send = try sandbox.run("ps-send", ["--print-ids", "--drive", "drivedemo", question])
        #expect(send.status == 0, "\(send.stderrText)")
        #expect(send.stdoutText.contains("data: [DONE]"))
        #expect(Records.value("conversation", in: send.stderrText) == LocalServer.globalConversationID)
        let messageID = try #require(Records.value("message", in: send.stderrText))
        if dialect == "pagespace" { #expect(Records.value("stream", in: send.stderrText) != nil) }
        let streamed = Records.streamedText(send.stdoutText)
        #expect(!streamed.isEmpty)

        let history = try sandbox.run("ps-history", [])
        #expect(history.status == 0, "\(history.stderrText)")
        let records = try Records.parse(history.stdoutText)
        #expect(records.count == 8)  // 6 seeded + the question + the answer
        let user = try #require(records.dropLast().last)
        #expect(user["id"] as? String == messageID)
        #expect(user["role"] as? String == "user")
        #expect(Records.text(of: user) == question)
        let answer = try #require(records.last)
        #expect(answer["role"] as? String == "assistant")
        #expect(Records.text(of: answer) == streamed)
        // Stored envelopes come out as parts.
        for record in records {
            #expect(record["parts"] is [Any])
            #expect(record["content"] == nil && record["toolCalls"] == nil)
        }

        if dialect == "pagespace-legacy" {
            // The messages the server sent in the stored-envelope form were rebuilt into parts.
            let token = try sandbox.run("ps-auth", ["token"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
            let raw = try server.request("GET", "/api/ai_conversations/\(LocalServer.globalConversationID)/messages?limit=200",
                                         headers: ["Authorization": "Bearer \(token)"])
            let envelopes = (try raw.jsonObject()["messages"] as? [[String: Any]] ?? []).filter { $0["parts"] == nil }
            #expect(!envelopes.isEmpty)
            for envelope in envelopes {
                let exported = try #require(records.first { $0["id"] as? String == envelope["id"] as? String })
                #expect(!((exported["parts"] as? [Any]) ?? []).isEmpty)
            }
        }

        // The CSRF token goes with legacy sends; the browser session id with current ones.
        let log = try server.requestLog()
        let post = try #require(log.last { ($0["method"] as? String) == "POST" && ($0["path"] as? String)?.hasSuffix("/messages") == true })
        let headers = (post["headers"] as? [String: Any] ?? [:]).mapKeys { $0.lowercased() }
        #expect(headers["authorization"] != nil)
        if dialect == "pagespace-legacy" { #expect(headers["x-csrf-token"] != nil) } else {
            #expect(headers["x-browser-session-id"] != nil)
        }
        #expect((headers["user-agent"] as? String)?.hasPrefix("ps-tools/") == true)
        let body = try #require(post["body"] as? [String: Any])
        let sent = try #require((body["messages"] as? [[String: Any]])?.last)
        #expect(sent["id"] as? String == messageID)
        if dialect == "pagespace" {
            #expect(body["contextRef"] as? [String: String] == ["routeType": "drive", "driveId": "drivedemo"])
        } else {
            let location = (body["locationContext"] as? [String: Any])?["currentDrive"] as? [String: Any]
            #expect(location?["id"] as? String == "drivedemo")
        }
        #expect(!server.stderrText.contains(LocalServer.sessionToken))
        #expect(!server.stderrText.contains(LocalServer.password))
    }

    /// The whole loop a user runs: send through the live pipeline, then export; the exported
    /// assistant messages have exactly the parts the pipeline rebuilt from the stream.
    @Test(arguments: LocalServer.dialects) func pipelineThenExportGivesTheSameMessages(dialect: String) throws {
        let server = try LocalServer.start(dialect: dialect)
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)

        var rebuilt: [[String: Any]] = []
        for question in ["think about code", "use a tool to read the roadmap", "a table please", "hello there"] {
            let result = try sandbox.shell(
                "set -o pipefail; ps-send --conversation \(LocalServer.globalConversationID) '\(question)' | ps-sse | ps-parts --final")
            #expect(result.status == 0, "\(question): \(result.stderrText)")
            let message = try #require(try Records.parse(result.stdoutText).last)
            #expect(message["role"] as? String == "assistant")
            #expect(message["incomplete"] == nil)
            rebuilt.append(message)
        }
        // The rendered pipeline works on the same stream, and says nothing on stderr.
        let rendered = try sandbox.shell(
            "set -o pipefail; ps-send 'show me some code' | ps-sse | ps-parts | ps-render --format plain --width 70")
        #expect(rendered.status == 0, "\(rendered.stderrText)")
        #expect(rendered.stdoutText.contains("── Assistant"))
        #expect(rendered.stderrText.isEmpty)

        let history = try sandbox.run("ps-history", ["--conversation", LocalServer.globalConversationID, "--all"])
        #expect(history.status == 0, "\(history.stderrText)")
        let exported = try Records.parse(history.stdoutText)
        let answers = exported.filter { $0["role"] as? String == "assistant" }.suffix(5).prefix(4)
        #expect(answers.count == 4)
        for (streamed, stored) in zip(rebuilt, answers) {
            // History drops step-start parts and text states, as the server's rebuild does.
            #expect(Records.text(of: streamed) == Records.text(of: stored))
            #expect(Self.toolSummary(streamed) == Self.toolSummary(stored))
        }
        #expect(rebuilt.contains { !Self.toolSummary($0).isEmpty })
    }

    /// Tool parts reduced to what both the stream and the history must agree on.
    static func toolSummary(_ message: [String: Any]) -> [String] {
        (message["parts"] as? [[String: Any]] ?? []).compactMap { part in
            guard let type = part["type"] as? String, type.hasPrefix("tool-") else { return nil }
            let input = try? JSONSerialization.data(withJSONObject: part["input"] ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed])
            let output = try? JSONSerialization.data(withJSONObject: part["output"] ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed])
            return [type, part["toolCallId"] as? String ?? "", part["state"] as? String ?? "",
                    String(decoding: input ?? Data(), as: UTF8.self), String(decoding: output ?? Data(), as: UTF8.self)]
                .joined(separator: "|")
        }
    }

    @Test func wrongPasswordIsRefusedAndNothingIsStored() throws {
        let server = try LocalServer.start(dialect: "pagespace-legacy")
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let login = try sandbox.run(
            "ps-auth", ["login", "--server", server.baseURL, "--email", LocalServer.email, "--password-stdin"],
            stdin: "wrong\n")
        #expect(login.status == 4)
        #expect(login.stderrText.contains("Invalid email or password"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.credentialsPath))
        #expect(try sandbox.run("ps-send", ["hi"]).status == 4)
        #expect(try sandbox.run("ps-history", []).status == 4)
        #expect(try sandbox.run("ps-auth", ["token"]).status == 4)
        // A bad token is refused at login too.
        let current = try LocalServer.start()
        defer { current.stop() }
        let bad = try sandbox.run("ps-auth", ["login", "--with-token", "--server", current.baseURL], stdin: "ps_sess_nope\n")
        #expect(bad.status == 4)
        #expect(!bad.stderrText.contains("ps_sess_nope"))
    }

    @Test(arguments: LocalServer.dialects) func errorsGiveTheirExitCodes(dialect: String) throws {
        let server = try LocalServer.start(dialect: dialect)
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let send = (dialect == "pagespace" ? "/api/ai/global/" : "/api/ai_conversations/")
            + LocalServer.globalConversationID + "/messages"

        for (status, expected) in [(401, Int32(4)), (403, 5), (404, 6), (500, 8), (502, 8)] {
            // A legacy 401 is answered by renewing the login and sending again: refuse both.
            let times = status == 401 && dialect == "pagespace-legacy" ? 2 : 1
            try server.armFault(#"{"status":\#(status),"times":\#(times),"path":"\#(send)"}"#)
            let result = try sandbox.run("ps-send", ["--conversation", LocalServer.globalConversationID, "hello"])
            #expect(result.status == expected, "status \(status): \(result.stderrText)")
            #expect(result.stderrText.split(separator: "\n").count == 1, "\(result.stderrText)")
            #expect(result.stdout.isEmpty)
        }
        if dialect == "pagespace" {
            try server.armFault(#"{"status":402,"times":1,"path":"\#(send)"}"#)
            let credits = try sandbox.run("ps-send", ["--conversation", LocalServer.globalConversationID, "hello"])
            #expect(credits.status == 7 && credits.stderrText.contains("out of credits"))
        }

        // 429 on a send: reported with the server's details, never resent.
        try server.clearRequestLog()
        try server.armFault(#"{"status":429,"times":1,"retryAfter":1,"path":"\#(send)"}"#)
        let limited = try sandbox.run("ps-send", ["--conversation", LocalServer.globalConversationID, "hello"])
        #expect(limited.status == 7)
        #expect(limited.stderrText.contains("rate limited"))
        #expect(limited.stderrText.contains("retry after 1s"))
        if dialect == "pagespace-legacy" { #expect(limited.stderrText.contains("calls used")) }
        let posts = try server.requestLog().filter { ($0["method"] as? String) == "POST" }
        #expect(posts.count == 1)

        // An unknown page is one the user may not view: 403 (page-chat-turn.ts:485-493; the
        // late-2025 route.ts:188-195).
        let page = try sandbox.run("ps-send", ["--page", "page_missing", "hello"])
        #expect(page.status == 5, "\(page.stderrText)")
    }

    @Test(arguments: LocalServer.dialects) func readsRetryServerErrorsAndRateLimits(dialect: String) throws {
        let server = try LocalServer.start(dialect: dialect)
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let path = dialect == "pagespace" ? "/api/ai/global/" : "/api/ai_conversations/"
        let args = ["--conversation", LocalServer.globalConversationID]
        let full = try sandbox.run("ps-history", args)
        #expect(full.status == 0)

        try server.armFault(#"{"status":503,"times":2,"path":"\#(path)"}"#)
        let recovered = try sandbox.run("ps-history", args)
        #expect(recovered.status == 0, "\(recovered.stderrText)")
        #expect(recovered.stdoutText == full.stdoutText)
        #expect(recovered.stderrText.contains("server answered 503; retrying"))

        try server.armFault(#"{"status":429,"times":1,"retryAfter":1,"path":"\#(path)"}"#)
        let waited = try sandbox.run("ps-history", args)
        #expect(waited.status == 0, "\(waited.stderrText)")
        #expect(waited.stderrText.contains("server answered 429; retrying in 1s"))
        #expect(waited.stdoutText == full.stdoutText)

        // Out of retries: the last answer is reported.
        try server.armFault(#"{"status":500,"times":5,"path":"\#(path)"}"#)
        let failed = try sandbox.run("ps-history", args + ["--retries", "1"])
        #expect(failed.status == 8)
        #expect(failed.stdout.isEmpty)
        try server.clearFaults()

        // A Retry-After longer than allowed is not waited for.
        try server.armFault(#"{"status":429,"times":1,"retryAfter":3600,"path":"\#(path)"}"#)
        let tooLong = try sandbox.run("ps-history", args)
        #expect(tooLong.status == 7)
    }

    @Test(arguments: LocalServer.dialects) func aCutStreamKeepsWhatArrivedAndExitsNine(dialect: String) throws {
        let server = try LocalServer.start(dialect: dialect)
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        try server.armFault(#"{"drop":true,"afterEvents":3,"times":1}"#)
        // (Without --no-resume, the current API's reply would be joined again: StreamResumeTests.)
        let result = try sandbox.run("ps-send", ["--no-resume", "hello"])
        #expect(result.status == 9, "\(result.stderrText)")
        #expect(result.stderrText.contains("stream was cut"))
        #expect(!result.stdoutText.contains("[DONE]"))
        let events = result.stdoutText.components(separatedBy: "\n").filter { $0.hasPrefix("data: ") }
        #expect(events.count == 3)
    }

    @Test func keepAlivesKeepASlowStreamAliveAndSilenceTimesOut() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(extra: ["PAGESPACE_TOKEN": LocalServer.sessionToken,
                                                 "PAGESPACE_API_URL": server.baseURL])
        // Keep-alive comments pass through unchanged and the stream completes.
        try server.armFault(#"{"slow":true,"keepAliveMs":20,"pauseMs":60,"times":1}"#)
        let slow = try sandbox.run("ps-send", ["--idle-timeout", "1", "hello"])
        #expect(slow.status == 0, "\(slow.stderrText)")
        #expect(slow.stdoutText.contains(": keep-alive\n"))
        #expect(slow.stdoutText.contains("data: [DONE]"))

        // Pauses longer than the idle timeout, filled with keep-alives: the stream lives on
        // until the server cuts it after 3 events.
        try server.armFault(#"{"slow":true,"keepAliveMs":50,"pauseMs":1500,"times":1}"#)
        try server.armFault(#"{"drop":true,"afterEvents":3,"times":1}"#)
        let kept = try sandbox.run("ps-send", ["--no-resume", "--idle-timeout", "1", "hello"])
        #expect(kept.status == 9)
        #expect(kept.stderrText.contains("stream was cut"))
        #expect(!kept.stderrText.contains("nothing received"))
        #expect(kept.stdoutText.components(separatedBy: "\n").filter { $0.hasPrefix("data: ") }.count == 3)

        // The same pauses in silence: the idle timeout ends the transfer, what came is kept.
        try server.armFault(#"{"slow":true,"keepAliveMs":3000,"pauseMs":3000,"times":1}"#)
        try server.armFault(#"{"drop":true,"afterEvents":3,"times":1}"#)
        let silent = try sandbox.run("ps-send", ["--no-resume", "--idle-timeout", "1", "hello"])
        #expect(silent.status == 9)
        #expect(silent.stderrText.contains("nothing received for 1 seconds"), "\(silent.stderrText)")
        #expect(silent.stdoutText.hasPrefix("data: "))
    }

    @Test func aReaderThatLeavesEndsTheSendQuietlyAndStopsTheTurn() throws {
        let server = try LocalServer.start(extraArguments: ["--pace-ms", "20"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(extra: ["PAGESPACE_TOKEN": LocalServer.sessionToken,
                                                 "PAGESPACE_API_URL": server.baseURL])
        let result = try sandbox.shell("ps-send hello | head -n 1; echo \"status=${PIPESTATUS[0]}\"")
        #expect(result.stdoutText.hasPrefix("data: {\"type\":\"start\""))
        #expect(result.stdoutText.contains("status=141"))
        #expect(result.stderrText.isEmpty, "\(result.stderrText)")
        let aborts = try server.requestLog().filter { ($0["path"] as? String) == "/api/ai/abort" }
        #expect(aborts.count == 1)
    }

    @Test func looseCredentialsAreRefused() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        chmod(sandbox.credentialsPath, 0o644)
        for command in ["ps-send", "ps-history"] {
            let result = try sandbox.run(command, command == "ps-send" ? ["hi"] : [])
            #expect(result.status == 4)
            #expect(result.stderrText.contains("chmod 600 \(sandbox.credentialsPath)"))
        }
        #expect(try sandbox.run("ps-auth", ["status"]).status == 4)
        chmod(sandbox.credentialsPath, 0o600)
        #expect(try sandbox.run("ps-auth", ["status"]).status == 0)
    }

    @Test func tokensNeverAppearInArgvOrLogs() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let login = try sandbox.login(server)
        try server.armFault(#"{"slow":true,"keepAliveMs":50,"pauseMs":500,"times":1}"#)
        try server.armFault(#"{"drop":true,"afterEvents":4,"times":1}"#)
        let out = sandbox.directory + "/out.sse"
        let result = try sandbox.shell("""
            ps-send hello > \(out) & pid=$!
            while ! grep -q '^data: ' \(out) 2>/dev/null; do sleep 0.05; done
            ps -ww -o args= -p $pid; cat /proc/$pid/environ | tr '\\0' '\\n' | grep -c PAGESPACE_TOKEN; wait $pid
            """)
        #expect(result.stdoutText.contains("ps-send hello"), "\(result.stdoutText)")
        #expect(!result.stdoutText.contains(LocalServer.sessionToken))
        #expect(result.stdoutText.contains("0\n"))
        // A flag that would put a token on the command line does not exist.
        #expect(try sandbox.run("ps-auth", ["login", "--token", "x"]).status == 2)
        #expect(try sandbox.run("ps-auth", ["login", "--password", "x"]).status == 2)
        // Failures mention neither the token nor the password.
        try server.armFault(#"{"status":401,"times":1}"#)
        let refused = try sandbox.run("ps-send", ["hi"])
        #expect(refused.status == 4)
        for text in [login.stderrText, refused.stderrText, result.stderrText, server.stderrText] {
            #expect(!text.contains(LocalServer.sessionToken))
        }
        // Only `ps-auth token` prints it.
        #expect(try sandbox.run("ps-auth", ["token"]).stdoutText == LocalServer.sessionToken + "\n")
    }

    @Test(arguments: LocalServer.dialects) func theAPIKindIsDetectedAndRemembered(dialect: String) throws {
        let server = try LocalServer.start(dialect: dialect)
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        // A token of no known shape: the server is asked which API it speaks.
        let probed = try sandbox.run("ps-auth", ["status"], env: ["PAGESPACE_TOKEN": "opaque-token",
                                                                 "PAGESPACE_API_URL": server.baseURL])
        #expect(probed.stdoutText.contains("api: \(dialect)\n"), "\(probed.stdoutText)")
        #expect(probed.status == 4)
        // Logged in without --api: the kind is stored in the profile.
        #expect(try sandbox.login(server).status == 0)
        let config = try String(contentsOfFile: sandbox.configPath, encoding: .utf8)
        #expect(config.contains(#""api":"\#(dialect)""#))
        if dialect == "pagespace-legacy" {
            // A legacy JWT in the environment is recognised by its shape.
            let jwt = try server.legacyLogin().token
            let env = ["PAGESPACE_TOKEN": jwt, "XDG_CONFIG_HOME": sandbox.directory + "/empty",
                       "PAGESPACE_API_URL": server.baseURL]
            let history = try sandbox.run("ps-history", ["--limit", "2"], env: env)
            #expect(history.status == 0, "\(history.stderrText)")
            #expect(try Records.parse(history.stdoutText).count == 2)
        }
    }

    @Test func environmentOverridesAndLogout() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        // Only the environment: no files at all.
        let env = ["PAGESPACE_TOKEN": LocalServer.mcpKey, "PAGESPACE_API_URL": server.baseURL]
        let status = try sandbox.run("ps-auth", ["status"], env: env)
        #expect(status.status == 0, "\(status.stderrText)")
        #expect(status.stdoutText.contains("credential: from the environment (PAGESPACE_TOKEN)"))
        #expect(status.stdoutText.contains("server: \(server.baseURL) (from the environment (PAGESPACE_API_URL))"))
        // MCP keys cannot reach the Global assistant: authentication needed, with the reason.
        let global = try sandbox.run("ps-send", ["hi"], env: env)
        #expect(global.status == 4)
        #expect(global.stderrText.contains("session token"))

        #expect(try sandbox.login(server).status == 0)
        #expect(try sandbox.run("ps-auth", ["token"], env: ["PAGESPACE_TOKEN": "ps_sess_env"]).stdoutText == "ps_sess_env\n")
        let logout = try sandbox.run("ps-auth", ["logout"])
        #expect(logout.status == 0, "\(logout.stderrText)")
        #expect(try sandbox.run("ps-auth", ["status"]).status == 4)
        // The current server's logout reads only the browser's cookie: a bearer session goes on,
        // and the user is told so.
        #expect(logout.stderrText.contains("cannot end a session from outside the browser"))
        let me = try server.request("GET", "/api/auth/me", headers: ["Authorization": "Bearer \(LocalServer.sessionToken)"])
        #expect(me.status == 200)
    }
}

extension Dictionary where Key == String {
    func mapKeys(_ transform: (String) -> String) -> [String: Value] {
        Dictionary(map { (transform($0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
    }
}
