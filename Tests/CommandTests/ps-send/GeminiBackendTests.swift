import Foundation
import Testing
import TestSupport

/// The gemini API kind end to end against the local server's gemini dialect (the Gemini CLI's
/// mobile API): a Firebase ID token, conversations the server keeps, named SSE events with
/// keep-alive comments, cancel, settings.
@Suite struct GeminiBackendTests {
    /// The demo Firebase ID token the gemini dialect accepts (`ps-local-server --print-gemini-token`).
    static let token =
        "eyJhbGciOiJSUzI1NiIsImtpZCI6InBzLWxvY2FsLXNlcnZlciIsInR5cCI6IkpXVCJ9"
        + ".eyJpc3MiOiJodHRwczovL3NlY3VyZXRva2VuLmdvb2dsZS5jb20vcHMtbG9jYWwtZGVtbyIsImF1ZCI6InBzLWxvY2FsLWRlbW8i"
        + "LCJzdWIiOiJ1c2VyX2RlbW8iLCJ1c2VyX2lkIjoidXNlcl9kZW1vIiwibmFtZSI6IkRlbW8gVXNlciIsImVtYWlsIjoiZGVtb0Bl"
        + "eGFtcGxlLmNvbSIsImlhdCI6MTc2MTk4NzYwMCwiZXhwIjo0MTAyNDQ0ODAwfQ"
        + ".cHMtbG9jYWwtc2VydmVyLWRlbW8tc2lnbmF0dXJl"

    static func start(_ extra: [String] = []) throws -> LocalServer {
        try LocalServer.start(dialect: "gemini", extraArguments: ["--quiet"] + extra)
    }

    static func sandbox(_ server: LocalServer) throws -> NetworkSandbox {
        try NetworkSandbox(extra: [
            "PAGESPACE_API_URL": server.baseURL, "PAGESPACE_API_KIND": "gemini", "PAGESPACE_TOKEN": token,
        ])
    }

    static func api(_ server: LocalServer, _ method: String, _ path: String, body: String? = nil) throws -> HTTPReply {
        var headers = ["Authorization": "Bearer " + token]
        if body != nil { headers["Content-Type"] = "application/json" }
        return try server.request(method, "/api/v1" + path, headers: headers, body: body)
    }

    @Test func loginTakesTheIDTokenAndRefusesAWrongOne() throws {
        let server = try Self.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let url = server.baseURL
        let wrong = try sandbox.run("ps-auth", ["login", "--api", "gemini", "--server", url, "--with-token"],
                                    stdin: "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.c2ln\n")
        #expect(wrong.status == 4, "\(wrong.stderrText)")
        #expect(wrong.stderrText.contains("Invalid or expired token"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.credentialsPath))

        let login = try sandbox.run("ps-auth", ["login", "--api", "gemini", "--server", url, "--with-token"], stdin: Self.token + "\n")
        #expect(login.status == 0, "\(login.stderrText)")
        #expect(login.stderrText.contains("Demo User <demo@example.com>"))
        #expect(try String(contentsOfFile: sandbox.configPath, encoding: .utf8).contains(#""api":"gemini""#))
        // Logging in again without --api: a JWT does not make the profile a pagespace-legacy one.
        let again = try sandbox.run("ps-auth", ["login", "--with-token"], stdin: Self.token + "\n")
        #expect(again.status == 0, "\(again.stderrText)")
        let status = try sandbox.run("ps-auth", ["status"])
        #expect(status.status == 0, "\(status.stderrText)")
        #expect(status.stdoutText.contains("api: gemini"))
        #expect(status.stdoutText.contains("works: yes"))
        let logout = try sandbox.run("ps-auth", ["logout"])
        #expect(logout.status == 0, "\(logout.stderrText)")
        #expect(logout.stderrText.contains("stays valid until it expires"))
        #expect(try sandbox.run("ps-auth", ["status"]).status == 4)
        let noToken = try server.request("GET", "/api/v1/conversations")
        #expect(noToken.status == 401)
        #expect(noToken.text == #"{"error":"Missing or invalid Authorization header"}"#)
        #expect(try server.request("GET", "/health").jsonObject()["status"] as? String == "healthy")
    }

    @Test func threeTurnsGoToTheLastConversationAndAreListedExportedAndRendered() throws {
        let server = try Self.start()
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        for (index, question) in ["First question", "Second question", "Third question"].enumerated() {
            let model = index == 0 ? ["--model", "gemini-2.5-flash"] : []
            let turn = try sandbox.run("ps-send", model + ["--print-ids", question])
            #expect(turn.status == 0, "\(turn.stderrText)")
            #expect(turn.stdoutText.contains("event: done"))
        }
        // Another conversation, newer on the server, is not where the next message goes.
        _ = try Self.api(server, "POST", "/conversations", body: #"{"title":"Elsewhere"}"#)
        let fourth = try sandbox.run("ps-send", ["--print-ids", "Fourth question"])
        #expect(fourth.status == 0, "\(fourth.stderrText)")
        let id = try #require(Records.value("conversation", in: fourth.stderrText))

        let list = try Records.parse(try sandbox.run("ps-history", ["--list"]).stdoutText)
        #expect(list.count == 2)
        let listed = try #require(list.first { $0["id"] as? String == id })
        #expect(listed["messageCount"] as? Int == 8)
        #expect(listed["title"] as? String == "First question")
        #expect(listed["lastMessageAt"] is String)
        let stored = try #require(try Self.api(server, "GET", "/conversations/" + id).jsonObject())
        #expect((stored["metadata"] as? [String: Any])?["model"] as? String == "gemini-2.5-flash")

        let export = try sandbox.run("ps-history", [])
        #expect(export.status == 0, "\(export.stderrText)")
        let messages = try Records.parse(export.stdoutText)
        #expect(messages.map { $0["role"] as? String } == Array(repeating: ["user", "assistant"], count: 4).flatMap { $0 })
        #expect(messages.first.map(Records.text) == "First question")
        #expect(messages.last.map(Records.text)?.contains("Fourth question") == true)
        let rendered = try sandbox.shell("ps-history | ps-render --format plain --width 60")
        #expect(rendered.status == 0, "\(rendered.stderrText)")
        #expect(rendered.stdoutText.contains("── User"))
        #expect(rendered.stdoutText.contains("Third question"))

        let delete = try sandbox.run("ps-history", ["--delete", id])
        #expect(delete.status == 0, "\(delete.stderrText)")
        #expect(try Self.api(server, "GET", "/conversations/" + id).status == 404)
    }

    /// Thinking models send a thought on most replies, its text gemini-cli's {subject,
    /// description}: the reply is whole, the thought its reasoning.
    @Test func aReplyWithAThoughtIsWhole() throws {
        let server = try Self.start()
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let raw = try sandbox.run("ps-send", ["think about Lisbon"])
        #expect(raw.status == 0, "\(raw.stderrText)")
        #expect(raw.stdoutText.contains(#"event: thought\#ndata: {"text":{"subject":"#))
        let parts = try sandbox.shell("ps-send 'think about Lisbon' | ps-sse | ps-parts --final")
        #expect(parts.status == 0, "\(parts.stderrText)")
        let reply = try #require(try Records.parse(parts.stdoutText).last)
        let kinds = (reply["parts"] as? [[String: Any]])?.map { $0["type"] as? String }
        #expect(kinds == ["reasoning", "text"], "\(String(describing: kinds))")
        #expect(((reply["parts"] as? [[String: Any]])?.first?["text"] as? String)?.hasPrefix("**The user asks") == true)
    }

    /// The real server fails every tool call (its scheduler has no tool registry): the call,
    /// then `error {code:"STREAM_ERROR"}` and `done`, never a tool-result. Said so, exit 8.
    @Test func aToolCallFailsOnTheServerAndIsSaidSo() throws {
        let server = try Self.start()
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let raw = try sandbox.run("ps-send", ["think, then use a tool"])
        #expect(raw.status == 8, "\(raw.stderrText)")
        #expect(raw.stderrText.contains("the Gemini server cannot run tools"), "\(raw.stderrText)")
        #expect(raw.stdoutText.contains("event: tool-call") && !raw.stdoutText.contains("event: tool-result"))
        let afterError = raw.stdoutText.components(separatedBy: "STREAM_ERROR").last ?? ""
        #expect(raw.stdoutText.contains("STREAM_ERROR") && afterError.contains("event: done"))
        let parts = try sandbox.shell("ps-send 'think, then use a tool' | ps-sse | ps-parts --final")
        let reply = try #require(try Records.parse(parts.stdoutText).last)
        let kinds = (reply["parts"] as? [[String: Any]])?.map { $0["type"] as? String }
        #expect(kinds == ["reasoning", "tool-read_page"], "\(String(describing: kinds))")
        // The thought is gemini-cli's {subject, description}: shown subject first, in bold.
        let thought = ((reply["parts"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
        #expect(thought.hasPrefix("**The user asks: \"think, then use a tool\"**"), "\(thought)")
        #expect((reply["incomplete"] as? [String: Any])?["reason"] as? String == "error")
    }

    /// With --gemini-runs-tools the twin runs the call, as a server with its tool registry would.
    @Test func thoughtsAndAToolCallPairedWithItsResultAndTheUsage() throws {
        let server = try Self.start(["--gemini-runs-tools"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let result = try sandbox.shell("ps-send 'think, then use a tool' | ps-sse | ps-parts --final")
        #expect(result.status == 0, "\(result.stderrText)")
        let reply = try #require(try Records.parse(result.stdoutText).last)
        let parts = try #require(reply["parts"] as? [[String: Any]])
        #expect(parts.map { $0["type"] as? String } == ["reasoning", "tool-read_page", "text"])
        #expect((parts[1]["input"] as? [String: Any])?["pageId"] as? String == "page_doc_demo")
        #expect(parts[1]["state"] as? String == "output-available")
        #expect((parts[1]["output"] as? String)?.contains("Project Notes") == true)
        let usage = try #require((reply["metadata"] as? [String: Any])?["usage"] as? [String: Any])
        #expect((usage["inputTokens"] as? Int ?? 0) > 0)
        #expect((usage["outputTokens"] as? Int ?? 0) > 0)

        // The server keeps the reply's text and usage only (sessionManager.ts:232-240).
        let history = try Records.parse(try sandbox.run("ps-history", []).stdoutText)
        let stored = try #require(history.last?["parts"] as? [[String: Any]])
        #expect(stored.map { $0["type"] as? String } == ["text"])
        #expect(((history.last?["metadata"] as? [String: Any])?["usage"] as? [String: Any])?["outputTokens"] as? Int ?? 0 > 0)
    }

    @Test func ctrlCCancelsTheTurnOnTheServer() throws {
        let server = try Self.start()
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        try server.armFault(#"{"slow":true,"pauseMs":2000,"times":1}"#)
        let out = sandbox.directory + "/out.sse"
        let result = try sandbox.shell("""
            ps-send --print-ids hello > \(out) 2> \(sandbox.directory)/err & pid=$!
            while ! grep -q '^event: ' \(out) 2>/dev/null; do sleep 0.05; done
            kill -INT $pid; wait $pid; echo "status=$?"
            """)
        #expect(result.stdoutText.contains("status=130"), "\(result.stdoutText)")
        let errors = try String(contentsOfFile: sandbox.directory + "/err", encoding: .utf8)
        let conversation = try #require(Records.value("conversation", in: errors))
        #expect(errors.contains("the server stopped the turn"), "\(errors)")
        let cancel = try server.requestLog().filter { ($0["path"] as? String) == "/api/v1/conversations/\(conversation)/cancel" }
        #expect(cancel.count == 1)
        // The server kept what was streamed before the cancel: a partial reply, no usage.
        var reply: [String: Any]?
        for _ in 0..<50 {
            let messages = try Self.api(server, "GET", "/conversations/" + conversation).jsonObject()["messages"] as? [[String: Any]]
            reply = messages?.last { $0["role"] as? String == "assistant" }
            if reply != nil { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect((reply?["tokenUsage"] as? [String: Any])?["outputTokens"] as? Int == 0)
        #expect((reply?["content"] as? String)?.isEmpty == false)
    }

    /// A cancel ends the turn's stream with `done` (the text so far), not an error.
    @Test func aCancelEndsTheStreamWithDone() throws {
        let server = try Self.start(["--pace-ms", "200"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let created = try Self.api(server, "POST", "/conversations", body: #"{"title":"Long"}"#)
        let id = try #require(try created.jsonObject()["id"] as? String)
        let out = sandbox.directory + "/out.sse"
        let result = try sandbox.shell("""
            ps-send --conversation \(id) 'show me a table' > \(out) 2> \(sandbox.directory)/err & pid=$!
            while ! grep -q '^event: token' \(out) 2>/dev/null; do sleep 0.05; done
            echo "cancel=$(curl -s -X POST -H 'Authorization: Bearer \(Self.token)' \(server.baseURL)/conversations/\(id)/cancel)"
            wait $pid; echo "status=$?"
            """)
        #expect(result.stdoutText.contains(#"cancel={"cancelled":true}"#), "\(result.stdoutText)")
        #expect(result.stdoutText.contains("status=0"), "\(result.stdoutText)")
        let stream = try String(contentsOfFile: out, encoding: .utf8)
        #expect(stream.contains("event: done") && !stream.contains("event: error"), "\(stream)")
    }

    @Test func keepAliveCommentsHoldASilentStreamOpen() throws {
        let quick = try Self.start(["--keepalive-ms", "200"])
        defer { quick.stop() }
        let sandbox = try Self.sandbox(quick)
        try quick.armFault(#"{"slow":true,"pauseMs":1600,"events":2,"times":1}"#)
        let kept = try sandbox.run("ps-send", ["--idle-timeout", "1", "hello"])
        #expect(kept.status == 0, "\(kept.stderrText)")
        #expect(kept.stdoutText.contains(": keepalive\n\n"))
        #expect(kept.stdoutText.contains("event: done"))

        // The same silence without comments often enough: the idle timeout ends it.
        let slow = try Self.start(["--keepalive-ms", "5000"])
        defer { slow.stop() }
        let quiet = try Self.sandbox(slow)
        try slow.armFault(#"{"slow":true,"pauseMs":1600,"events":2,"times":1}"#)
        let cut = try quiet.run("ps-send", ["--idle-timeout", "1", "hello"])
        #expect(cut.status == 9, "\(cut.stderrText)")
        #expect(cut.stderrText.contains("nothing received for 1 seconds"))
    }

    @Test func aCutOrUnfinishedStreamKeepsWhatArrived() throws {
        let server = try Self.start()
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        try server.armFault(#"{"drop":true,"afterEvents":3,"times":1}"#)
        let cut = try sandbox.run("ps-send", ["hello"])
        #expect(cut.status == 9, "\(cut.stderrText)")
        #expect(cut.stdoutText.components(separatedBy: "event: token").count - 1 == 3)

        try server.armFault(#"{"stop":true,"afterEvents":3,"times":1}"#)
        let unfinished = try sandbox.run("ps-send", ["hello"])
        #expect(unfinished.status == 10, "\(unfinished.stderrText)")
        #expect(unfinished.stderrText.contains("without a done event"))
        #expect(unfinished.stdoutText.components(separatedBy: "event: token").count - 1 == 3)
    }

    /// The model's errors arrive as `{code:"MODEL_ERROR", message:"[object Object]"}` and `done`:
    /// said as "the server gave no reason", exit 8, never "[object Object]".
    @Test func aModelErrorIsSaidWithoutObjectObject() throws {
        let server = try Self.start()
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        _ = try sandbox.run("ps-send", ["hello"])
        try server.armFault(#"{"status":429,"path":"/api/v1/conversations/","times":1}"#)
        let failed = try sandbox.run("ps-send", ["again"])
        #expect(failed.status == 8, "\(failed.stderrText)")
        #expect(failed.stderrText.contains("the server gave no reason (MODEL_ERROR)"), "\(failed.stderrText)")
        #expect(!failed.stderrText.contains("[object Object]"))
        #expect(failed.stdoutText.hasPrefix("event: error\n"))
        let parts = try sandbox.shell("printf %s \(shellQuote(failed.stdoutText)) | ps-sse | ps-parts --final")
        let reply = try #require(try Records.parse(parts.stdoutText).last)
        #expect((reply["incomplete"] as? [String: Any])?["reason"] as? String == "error")
        #expect(!parts.stdoutText.contains("[object Object]"))
    }

    /// A user holds at most 10 conversations: the 11th create is refused (400), and said so.
    @Test func theEleventhConversationIsRefusedAndSaidSo() throws {
        let server = try Self.start()
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        for n in 1...10 { #expect(try Self.api(server, "POST", "/conversations", body: #"{"title":"c\#(n)"}"#).status == 201) }
        let eleventh = try Self.api(server, "POST", "/conversations", body: "{}")
        #expect(eleventh.status == 400)
        #expect(eleventh.text == #"{"error":"Maximum sessions (10) reached. Delete an existing conversation first."}"#)
        let send = try sandbox.run("ps-send", ["--new-conversation", "hello"])
        #expect(send.status == 1, "\(send.stderrText)")
        #expect(send.stderrText.contains("keeps at most 10 conversations per user"), "\(send.stderrText)")
    }

    /// The server forgets a conversation after its idle time (30 minutes; shortened here): a
    /// send to it says so, and --new-conversation recovers.
    @Test func aForgottenConversationIsSaidAndANewOneRecovers() throws {
        let server = try Self.start(["--gemini-idle-ms", "400"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let first = try sandbox.run("ps-send", ["--print-ids", "hello"])
        let id = try #require(Records.value("conversation", in: first.stderrText))
        Thread.sleep(forTimeInterval: 0.8)
        let stale = try sandbox.run("ps-send", ["--conversation", id, "again"])
        #expect(stale.status == 6, "\(stale.stderrText)")
        #expect(stale.stderrText.contains("forgets a conversation after 30 minutes without use"), "\(stale.stderrText)")
        let stream = try Self.api(server, "POST", "/conversations/\(id)/messages", body: #"{"content":"hi"}"#)
        #expect(stream.text == "event: error\ndata: {\"code\":\"INTERNAL_ERROR\",\"message\":\"Conversation \(id) not found\"}\n\n")
        let recovered = try sandbox.run("ps-send", ["--new-conversation", "again"])
        #expect(recovered.status == 0, "\(recovered.stderrText)")
    }

    @Test func unknownConversationsAndRoutes() throws {
        let server = try Self.start()
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let send = try sandbox.run("ps-send", ["--conversation", "no-such-conversation", "hi"])
        #expect(send.status == 6, "\(send.stderrText)")
        #expect(send.stderrText.contains("no-such-conversation"))
        let export = try sandbox.run("ps-history", ["--conversation", "no-such-conversation"])
        #expect(export.status == 6, "\(export.stderrText)")
        // The route itself answers 200 and says it in the stream, as the headers went first.
        let stream = try Self.api(server, "POST", "/conversations/no-such-conversation/messages", body: #"{"content":"hi"}"#)
        #expect(stream.status == 200)
        #expect(stream.text
            == "event: error\ndata: {\"code\":\"INTERNAL_ERROR\",\"message\":\"Conversation no-such-conversation not found\"}\n\n")
        let empty = try Self.api(server, "POST", "/conversations/no-such-conversation/messages", body: #"{"content":"  "}"#)
        #expect(empty.status == 400 && empty.text == #"{"error":"Message content is required"}"#)
        let route = try Self.api(server, "GET", "/nothing-here")
        #expect(route.status == 404)
        #expect(route.text.contains("<pre>Cannot GET /api/v1/nothing-here</pre>"))
        // express.json() runs before the auth middleware; the auth middleware before the SSE headers.
        let badJSON = try server.request("POST", "/api/v1/conversations", headers: ["Content-Type": "application/json"], body: "{bad")
        #expect(badJSON.status == 400)
        #expect(badJSON.text.contains("<pre>Bad Request</pre>"))
        let wrongToken = try server.request("POST", "/api/v1/conversations/x/messages",
                                            headers: ["Authorization": "Bearer nope", "Content-Type": "application/json"],
                                            body: #"{"content":"hi"}"#)
        #expect(wrongToken.status == 401)
        #expect(wrongToken.text == #"{"error":"Invalid or expired token"}"#)
        let wrongBase = try NetworkSandbox(extra: [
            "PAGESPACE_API_URL": server.origin, "PAGESPACE_API_KIND": "gemini", "PAGESPACE_TOKEN": Self.token,
        ])
        let lost = try wrongBase.run("ps-history", ["--list"])
        #expect(lost.status == 6, "\(lost.stderrText)")
        #expect(lost.stderrText.contains("Cannot GET /conversations"))
    }

    /// Express 5's express.json() leaves req.body undefined for a body not sent as JSON
    /// (src/server.ts:38, express ^5.1.0): creating a conversation destructures it inside its
    /// try (400, conversations.ts:26-42), sending outside it (500, conversations.ts:99-107), and
    /// a content that is not a string breaks `content?.trim()` there too.
    @Test func bodiesAreReadAsExpressFiveReadsThem() throws {
        let server = try Self.start()
        defer { server.stop() }
        let auth = ["Authorization": "Bearer " + Self.token]
        let plain = auth.merging(["Content-Type": "text/plain"]) { $1 }
        let create = try server.request("POST", "/api/v1/conversations", headers: plain, body: #"{"title":"x"}"#)
        #expect(create.status == 400)
        #expect(create.text == #"{"error":"Cannot destructure property 'title' of 'req.body' as it is undefined."}"#)
        let bare = try server.request("POST", "/api/v1/conversations", headers: auth)
        #expect(bare.status == 400)
        let created = try Self.api(server, "POST", "/conversations", body: "")
        #expect(created.status == 201, "\(created.text)")
        let id = try #require(try created.jsonObject()["id"] as? String)
        #expect(try created.jsonObject()["title"] as? String == "New Conversation")
        let unsent = try server.request("POST", "/api/v1/conversations/\(id)/messages", headers: plain, body: #"{"content":"hi"}"#)
        #expect(unsent.status == 500)
        #expect(unsent.text.contains("<pre>Internal Server Error</pre>"))
        let number = try Self.api(server, "POST", "/conversations/\(id)/messages", body: #"{"content":5}"#)
        #expect(number.status == 500)
        let missing = try Self.api(server, "POST", "/conversations/\(id)/messages", body: "{}")
        #expect(missing.status == 400 && missing.text == #"{"error":"Message content is required"}"#)
        let kept = try Self.api(server, "GET", "/conversations/\(id)").jsonObject()
        #expect((kept["messages"] as? [Any])?.isEmpty == true)
        // Settings spread an undefined body into nothing: unchanged.
        let settings = try server.request("PUT", "/api/v1/settings", headers: plain, body: #"{"model":"x"}"#)
        #expect(settings.status == 200)
        #expect(try settings.jsonObject().isEmpty)
    }

    @Test func settingsAreShownAndChanged() throws {
        let server = try Self.start()
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let shown = try sandbox.run("ps-settings", [])
        #expect(shown.status == 0, "\(shown.stderrText)")
        #expect(shown.stdoutText == #"{"model":"gemini-2.5-pro","approvalMode":"auto_edit"}"# + "\n")
        let changed = try sandbox.run("ps-settings", ["--set", "approvalMode=yolo", "--set", "model=gemini-2.5-flash",
                                                      "--set", "maxTurns=20"])
        #expect(changed.status == 0, "\(changed.stderrText)")
        let settings = try #require(try Records.parse(changed.stdoutText).first)
        #expect(settings["approvalMode"] as? String == "yolo")
        #expect(settings["model"] as? String == "gemini-2.5-flash")
        #expect(settings["maxTurns"] as? Int == 20)
        let malformed = try sandbox.run("ps-settings", ["--set", "approvalMode"])
        #expect(malformed.status == 2)
        #expect(malformed.stderrText.contains("--set takes KEY=VALUE"))
        // The server checks nothing (settings.ts:41-51): any value is kept.
        let odd = try sandbox.run("ps-settings", ["--set", "approvalMode=sometimes"])
        #expect(odd.status == 0, "\(odd.stderrText)")
        #expect(try Self.api(server, "GET", "/settings").jsonObject()["approvalMode"] as? String == "sometimes")

        // A plain OpenAI-compatible server keeps none (PageSpace's are SearchAndSettingsTests').
        let openai = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { openai.stop() }
        let other = try sandbox.run("ps-settings", [], env: [
            "PAGESPACE_API_URL": openai.baseURL, "PAGESPACE_API_KIND": "openai", "PAGESPACE_TOKEN": "",
        ])
        #expect(other.status == 2)
        #expect(other.stderrText.contains("the openai API cannot keep settings"), "\(other.stderrText)")
    }

    private func shellQuote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
