import Foundation
import Testing
import TestSupport

/// The lucid API kind end to end against the local server's lucid dialect: a user made from
/// this machine's hashed id, conversations kept on the server, chat answered whole and written
/// as a UI message stream, history paged by offset, facts and summaries.
@Suite struct LucidBackendTests {
    @Test func loginCreatesTheUserAndASecondLoginFindsIt() throws {
        let world = try LucidWorld.start()
        defer { world.server.stop() }
        let first = try world.userID()
        let again = try world.sandbox.run("ps-auth", ["login"])
        #expect(again.status == 0, "\(again.stderrText)")
        #expect(try world.userID() == first)
        let logins = try world.server.requestLog().filter { $0["path"] as? String == "/v1/users" }
        let ids = logins.compactMap { ($0["body"] as? [String: Any])?["external_id"] as? String }
        #expect(ids.count == 2 && Set(ids).count == 1, "\(ids)")
        let externalID = try #require(ids.first)
        #expect(externalID.hasPrefix("ps-tools-") && externalID.hasSuffix("-default"))
        // Never the machine id itself.
        if let machine = try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8) {
            #expect(!externalID.contains(machine.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        #expect((logins.first?["body"] as? [String: Any])?["timezone"] as? String == "Europe/Paris")
        // Lucid overwrites name, email and timezone at every login: the second login (no
        // --user-name) sent the ones the profile had, so nothing was lost.
        let kept = try world.get("/v1/users/\(externalID)")
        #expect(kept["name"] as? String == "Ada", "\(kept)")
        #expect((logins.last?["body"] as? [String: Any])?["name"] as? String == "Ada")
        // The server: 201 every time, the same user for the same external id.
        let repeatLogin = try world.server.request("POST", "/v1/users", body: #"{"external_id":"\#(externalID)","name":"Ada","timezone":"Europe/Paris"}"#)
        #expect(repeatLogin.status == 201)
        #expect(try repeatLogin.jsonObject()["id"] as? String == first)
        let status = try world.sandbox.run("ps-auth", ["status"])
        #expect(status.status == 0, "\(status.stderrText)")
        #expect(status.stdoutText.contains("works: yes"))
        // Logging out forgets the user here; logging in again finds the same one.
        #expect(try world.sandbox.run("ps-auth", ["logout"]).status == 0)
        #expect(try world.sandbox.run("ps-send", ["hello"]).status == 4)
        #expect(try world.sandbox.run("ps-auth", ["login"]).status == 0)
        #expect(try world.userID() == first)
        // Another profile is another user.
        let other = try world.sandbox.run("ps-auth", ["login", "--profile", "work"])
        #expect(other.status == 0)
        #expect(try world.server.requestLog().filter { $0["path"] as? String == "/v1/users" }
            .compactMap { ($0["body"] as? [String: Any])?["external_id"] as? String }.contains { $0.hasSuffix("-work") })
    }

    /// Lucid takes external ids of letters, digits, `_` and `-` only: a profile named otherwise
    /// still logs in, and sends.
    @Test func aProfileNameWithOtherCharactersLogsIn() throws {
        let world = try LucidWorld.start()
        defer { world.server.stop() }
        let login = try world.sandbox.run("ps-auth", ["login", "--profile", "Ada's laptop.2"])
        #expect(login.status == 0, "\(login.stderrText)")
        let send = try world.sandbox.run("ps-send", ["--profile", "Ada's laptop.2", "hello"])
        #expect(send.status == 0, "\(send.stderrText)")
        let sent = try world.server.requestLog().filter { $0["path"] as? String == "/v1/users" && $0["method"] as? String == "POST" }
            .compactMap { ($0["body"] as? [String: Any])?["external_id"] as? String }
        #expect(sent.count == 2 && sent.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") } },
                "\(sent)")
    }

    /// A user id Lucid does not know lists no conversations (200, empty), so status asks for the
    /// user itself: a user that is gone is not reported as working.
    @Test func statusSaysWhenTheUserIsGone() throws {
        let world = try LucidWorld.start()
        defer { world.server.stop() }
        let externalID = try #require(try world.server.requestLog().first { $0["path"] as? String == "/v1/users" }
            .flatMap { ($0["body"] as? [String: Any])?["external_id"] as? String })
        #expect(try world.sandbox.run("ps-auth", ["status"]).stdoutText.contains("works: yes"))
        #expect(try world.server.request("DELETE", "/v1/users/\(externalID)").status == 204)
        let status = try world.sandbox.run("ps-auth", ["status"])
        #expect(!status.stdoutText.contains("works: yes"), "\(status.stdoutText)")
        #expect(status.stdoutText.contains("does not exist") || status.stderrText.contains("does not exist"),
                "\(status.stdoutText)\(status.stderrText)")
    }

    /// Lucid refuses a message over 10,000 characters (400): said before anything is sent.
    @Test func aMessageOverTenThousandCharactersIsRefusedBeforeSending() throws {
        let world = try LucidWorld.start()
        defer { world.server.stop() }
        try world.server.clearRequestLog()
        let long = try world.sandbox.run("ps-send", [String(repeating: "é", count: 10_001)])
        #expect(long.status == 2, "\(long.stderrText)")
        #expect(long.stderrText.contains("Lucid refuses messages over 10000 characters"), "\(long.stderrText)")
        #expect(try world.server.requestLog().filter { $0["path"] as? String == "/v1/chat" }.isEmpty)
        #expect(try world.sandbox.run("ps-send", [String(repeating: "é", count: 10_000)]).status == 0)
    }

    /// Ids are UUIDs: a malformed one is a conversation that is not there (exit 6), not the
    /// server's 400; the server's own field messages are shown.
    @Test func malformedIdsAreNotFoundAndFieldMessagesAreShown() throws {
        let world = try LucidWorld.start()
        defer { world.server.stop() }
        let history = try world.sandbox.run("ps-history", ["--conversation", "not-a-uuid"])
        #expect(history.status == 6, "\(history.stderrText)")
        #expect(history.stderrText.contains("there is no conversation not-a-uuid"))
        let send = try world.sandbox.run("ps-send", ["--conversation", "not-a-uuid", "hello"])
        #expect(send.status == 6, "\(send.stderrText)")
        let fact = try world.sandbox.run("ps-facts", ["off", "not-a-uuid"])
        #expect(fact.status == 6, "\(fact.stderrText)")
        let badTimezone = try world.sandbox.run("ps-auth", ["login", "--timezone", "Mars/Olympus"])
        #expect(badTimezone.status != 0)
        #expect(badTimezone.stderrText.contains("timezone: Invalid timezone"), "\(badTimezone.stderrText)")
    }

    @Test func threeTurnsStayInOneConversationAcrossRuns() throws {
        let world = try LucidWorld.start()
        defer { world.server.stop() }
        let first = try world.send("First question")
        #expect(try world.send("Second question") == first)
        #expect(try world.send("Third question") == first)
        let export = try world.sandbox.run("ps-history", [])
        #expect(export.status == 0, "\(export.stderrText)")
        let messages = try Records.parse(export.stdoutText)
        #expect(messages.map { $0["role"] as? String } == ["user", "assistant", "user", "assistant", "user", "assistant"])
        #expect(messages.filter { $0["role"] as? String == "user" }.map(Records.text) == ["First question", "Second question", "Third question"])
        #expect(messages.allSatisfy { ($0["createdAt"] as? String)?.hasSuffix("Z") == true })
        // A new conversation is titled from its message and becomes the current one.
        let second = try world.send("Plan the trip to Lyon\nwith details", ["--new-conversation"])
        #expect(second != first)
        #expect(try world.send("And the hotels?") == second)
        let list = try Records.parse(try world.sandbox.run("ps-history", ["--list"]).stdoutText)
        #expect(list.count == 2)
        #expect(list.first?["id"] as? String == second)
        #expect(list.first?["title"] as? String == "Plan the trip to Lyon")
        #expect(list.last?["title"] as? String == "First question")
        // --conversation goes back to the first one.
        #expect(try world.send("Fourth question", ["--conversation", first]) == first)
        #expect(try Records.parse(try world.sandbox.run("ps-history", ["--conversation", first]).stdoutText).count == 8)
    }

    @Test func theWholeAnswerIsWrittenAsAStreamThatThePipelineReads() throws {
        let world = try LucidWorld.start()
        defer { world.server.stop() }
        let raw = try world.sandbox.run("ps-send", ["--print-ids", "show me a table"])
        #expect(raw.status == 0, "\(raw.stderrText)")
        let lines = raw.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix(#"data: {"type":"start","messageId":"#) == true)
        #expect(lines.last == "data: [DONE]")
        #expect(raw.stdoutText.contains(#"{"type":"finish","finishReason":"stop"}"#))
        #expect(Records.streamedText(raw.stdoutText).contains("Plans compared"))
        let history = try Records.parse(try world.sandbox.run("ps-history", []).stdoutText)
        #expect(Records.value("message", in: raw.stderrText) == history.first?["id"] as? String)
        #expect(Records.value("conversation", in: raw.stderrText) != nil)
        let rendered = try world.sandbox.shell("ps-send 'show me a table again' | ps-sse | ps-parts | ps-render --format plain --width 70")
        #expect(rendered.status == 0, "\(rendered.stderrText)")
        #expect(rendered.stdoutText.contains("Plans compared"))
        let final = try world.sandbox.shell("ps-send 'hello there' | ps-sse | ps-parts --final")
        let reply = try #require(try Records.parse(final.stdoutText).last)
        #expect(reply["role"] as? String == "assistant")
        #expect(Records.text(of: reply).contains("hello there"))
        #expect(((reply["metadata"] as? [String: Any])?["conversationId"] as? String) != nil)
    }

    @Test func thousandsOfMessagesWithSharedTimestampsExportOnceOldestFirst() throws {
        let world = try LucidWorld.start()
        defer { world.server.stop() }
        let id = try world.send("Start")
        try world.seed(id, count: 2_500, perTimestamp: 40)
        try world.server.clearRequestLog()
        let export = try world.sandbox.run("ps-history", ["--page-size", "150"])
        #expect(export.status == 0, "\(export.stderrText)")
        let messages = try Records.parse(export.stdoutText)
        #expect(messages.count == 2_502)
        #expect(Set(Records.ids(messages)).count == 2_502)
        let seeded = messages.dropFirst(2).map(Records.text)
        #expect(seeded == (1...2_500).map { "Seeded message \($0) of 2500" })
        let times = messages.compactMap { $0["createdAt"] as? String }
        #expect(times == times.sorted())
        let pages = try world.server.requestLog().filter { ($0["path"] as? String)?.hasSuffix("/messages") == true }
        #expect(pages.count == 17, "\(pages.count) pages")
        // The older route gives the same page.
        let main = try world.get("/v1/conversations/\(id)/messages?limit=5&offset=40")
        let old = try world.get("/v1/messages/conversations/\(id)/messages?limit=5&offset=40")
        #expect((main["messages"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            == (old["messages"] as? [[String: Any]])?.compactMap { $0["id"] as? String })
    }

    @Test func stateMakesTheExportIncremental() throws {
        let world = try LucidWorld.start()
        defer { world.server.stop() }
        let id = try world.send("Start")
        try world.seed(id, count: 600, perTimestamp: 600)  // all at one instant
        let state = world.sandbox.directory + "/state.json"
        let export = { () throws -> [[String: Any]] in
            let run = try world.sandbox.run("ps-history", ["--page-size", "100", "--state", state])
            #expect(run.status == 0, "\(run.stderrText)")
            return try Records.parse(run.stdoutText)
        }
        let full = try export()
        #expect(full.count == 602)
        #expect(try export().isEmpty)
        try world.send("More")
        let more = try export()
        #expect(more.map(Records.text).first == "More")
        #expect(more.count == 2)
        // Exported messages deleted, even more than a page of them: nothing skipped or repeated.
        for message in full.dropFirst(10).prefix(250) { try world.deleteMessage(try #require(message["id"] as? String)) }
        try world.send("After the deletions")
        try world.seed(id, count: 3, perTimestamp: 3)
        let after = try export()
        #expect(after.map(Records.text).prefix(1) == ["After the deletions"])
        #expect(after.count == 5)
        #expect(try export().isEmpty)
    }

    @Test func anInterruptedExportLosesAndRepeatsNothing() throws {
        let world = try LucidWorld.start()
        defer { world.server.stop() }
        let id = try world.send("Start")
        try world.seed(id, count: 998, perTimestamp: 7)
        let state = world.sandbox.directory + "/state.json"
        try world.server.armFault(#"{"dropHistory":true,"afterPages":3,"times":20}"#)
        let cut = try world.sandbox.run("ps-history", ["--page-size", "100", "--state", state])
        #expect(cut.status == 9, "\(cut.stderrText)")
        let first = try Records.parse(cut.stdoutText)
        #expect(first.count == 300)
        try world.server.clearFaults()
        let rest = try Records.parse(try world.sandbox.run("ps-history", ["--page-size", "100", "--state", state]).stdoutText)
        let all = Records.ids(first + rest)
        #expect(all.count == 1_000)
        #expect(Set(all).count == 1_000)
    }

    @Test func conversationsAreRenamedAndDeleted() throws {
        let world = try LucidWorld.start()
        defer { world.server.stop() }
        let id = try world.send("Hello")
        let renamed = try world.sandbox.run("ps-history", ["--rename", id, "--title", "Greetings"])
        #expect(renamed.status == 0, "\(renamed.stderrText)")
        #expect(try Records.parse(renamed.stdoutText).first?["title"] as? String == "Greetings")
        #expect(try world.get("/v1/conversations/\(id)")["title"] as? String == "Greetings")
        // Lucid does not delete a conversation's messages with it: refused (500), and said why.
        let refused = try world.sandbox.run("ps-history", ["--delete", id])
        #expect(refused.status == 8, "\(refused.stderrText)")
        #expect(refused.stderrText.contains("cannot delete a conversation that has messages"), "\(refused.stderrText)")
        for message in try Records.parse(try world.sandbox.run("ps-history", ["--conversation", id]).stdoutText) {
            try world.deleteMessage(try #require(message["id"] as? String))
        }
        let deleted = try world.sandbox.run("ps-history", ["--delete", id])
        #expect(deleted.status == 0, "\(deleted.stderrText)")
        #expect(try Records.parse(deleted.stdoutText).first?["deleted"] as? Bool == true)
        #expect(try world.server.request("GET", "/v1/conversations/\(id)").status == 404)
        #expect(try world.sandbox.run("ps-history", ["--list"]).stdoutText.isEmpty)
        let gone = try world.sandbox.run("ps-history", ["--conversation", id])
        #expect(gone.status == 6, "\(gone.stderrText)")
        let again = try world.sandbox.run("ps-history", ["--delete", id])
        #expect(again.status == 6)
        // The next send starts a new conversation instead of the deleted current one.
        #expect(try world.send("Anyone there?") != id)
    }

    @Test func factsAreExtractedListedSwitchedAndSearched() throws {
        let world = try LucidWorld.start()
        defer { world.server.stop() }
        let sandbox = world.sandbox
        try world.send("Hi! I work as a nurse and I live in Lyon.")
        try world.send("I love jazz, but my cat is named Tom.")
        let extract = try sandbox.run("ps-facts", ["extract"])
        #expect(extract.status == 0, "\(extract.stderrText)")
        let created = try Records.parse(extract.stdoutText)
        #expect(Set(created.compactMap { $0["content"] as? String })
            == ["User works as a nurse", "User lives in Lyon", "User loves jazz", "User's cat is named Tom"])
        #expect(extract.stderrText.contains("extracted 4 facts, stored 4"))
        let nurse = try #require(created.first { $0["content"] as? String == "User works as a nurse" })
        #expect(nurse["category"] as? String == "personal")
        #expect(try Records.parse(try sandbox.run("ps-facts", []).stdoutText).count == 4)

        let nurseID = try #require(nurse["id"] as? String)
        let off = try sandbox.run("ps-facts", ["off", nurseID])
        #expect(off.status == 0, "\(off.stderrText)")
        #expect(try Records.parse(off.stdoutText).first?["is_active"] as? Bool == false)
        #expect(try Records.parse(try sandbox.run("ps-facts", ["list"]).stdoutText).count == 3)
        #expect(try Records.parse(try sandbox.run("ps-facts", ["--all"]).stdoutText).count == 4)
        let switchedOff = try sandbox.run("ps-facts", ["search", "what", "do", "I", "do", "for", "work", "--min-similarity", "0.5"])
        #expect(try Records.parse(switchedOff.stdoutText).isEmpty)  // search reads active facts only
        #expect(try sandbox.run("ps-facts", ["on", nurseID]).status == 0)

        let search = try sandbox.run("ps-facts", ["search", "What do I do for work?", "--min-similarity", "0.5"])
        #expect(search.status == 0, "\(search.stderrText)")
        let results = try Records.parse(search.stdoutText)
        #expect(results.count == 1)
        #expect((results.first?["fact"] as? [String: Any])?["content"] as? String == "User works as a nurse")
        let similarity = try #require(results.first?["similarity"] as? Double)
        #expect(similarity >= 0.5 && similarity < 1)
        let strict = try sandbox.run("ps-facts", ["search", "What do I do for work?", "--min-similarity", "0.99"])
        #expect(try Records.parse(strict.stdoutText).isEmpty)
        // Lucid stores every fact it extracts, also one it has (fact.service.ts:227).
        let twice = try sandbox.run("ps-facts", ["extract"])
        #expect(twice.stderrText.contains("extracted 4 facts, stored 4"), "\(twice.stderrText)")
        #expect(try Records.parse(try sandbox.run("ps-facts", ["--all"]).stdoutText).count == 8)
        let unknown = try sandbox.run("ps-facts", ["off", "00000000-0000-4000-8000-000000000000"])
        #expect(unknown.status == 6)
        #expect(unknown.stderrText.contains("Fact not found"))
        let bad = try sandbox.run("ps-facts", ["search", "x", "--min-similarity", "2"])
        #expect(bad.status == 2)
    }

    /// Lucid's confidence column is a Postgres DECIMAL, which its rows carry as a string
    /// ("0.900"); the fact records have the number ps-ndjson(5) documents.
    @Test func aFactsConfidenceIsANumberInEveryRecord() throws {
        let world = try LucidWorld.start()
        defer { world.server.stop() }
        let sandbox = world.sandbox
        try world.send("Hi! I work as a nurse and I live in Lyon.")
        let extract = try sandbox.run("ps-facts", ["extract"])
        #expect(extract.status == 0, "\(extract.stderrText)")
        let created = try Records.parse(extract.stdoutText)
        let nurse = try #require(created.first { $0["content"] as? String == "User works as a nurse" })
        let nurseID = try #require(nurse["id"] as? String)
        let userID = try #require(nurse["user_id"] as? String)
        let row = try #require((try world.get("/v1/facts/users/\(userID)/facts")["facts"] as? [[String: Any]])?.first)
        #expect(row["confidence"] is String, "\(row)")
        let listed = try Records.parse(try sandbox.run("ps-facts", []).stdoutText)
        let off = try Records.parse(try sandbox.run("ps-facts", ["off", nurseID]).stdoutText)
        for record in created + listed + off {
            let confidence = try #require(record["confidence"] as? Double, "\(record)")
            #expect(confidence > 0 && confidence <= 1)
        }
        #expect(listed.count == 2 && off.count == 1)
    }

    @Test func summariesAreGeneratedAndListed() throws {
        let world = try LucidWorld.start()
        defer { world.server.stop() }
        let id = try world.send("Tell me about gardening tomatoes")
        try world.send("Which tomatoes grow in shade?")
        let generated = try world.sandbox.run("ps-summary", ["generate"])
        #expect(generated.status == 0, "\(generated.stderrText)")
        let summary = try #require(try Records.parse(generated.stdoutText).first)
        #expect(summary["message_count"] as? Int == 4)
        #expect(summary["conversation_id"] as? String == id)
        #expect((summary["conversation_overview"] as? String)?.contains("tomato") == true)
        let short = try world.sandbox.run("ps-summary", ["generate", "--conversation", id, "--message-count", "2"])
        #expect(try Records.parse(short.stdoutText).first?["message_count"] as? Int == 2)
        let list = try world.sandbox.run("ps-summary", ["list", "--conversation", id])
        #expect(try Records.parse(list.stdoutText).count == 2)
        #expect(try Records.parse(try world.sandbox.run("ps-summary", []).stdoutText).count == 2)
        let old = try world.get("/v1/summaries/conversations/\(id)")
        #expect(old["count"] as? Int == 2)
        #expect(old["conversation_id"] as? String == id)
        let missing = try world.sandbox.run("ps-summary", ["generate", "--conversation", "nope"])
        #expect(missing.status == 6)
    }

    @Test func factsAreExtractedEveryNMessages() throws {
        let world = try LucidWorld.start()
        defer { world.server.stop() }
        let send = { (text: String) throws -> ProcessResult in
            let result = try world.sandbox.run("ps-send", ["--extract-facts-every", "4", text])
            #expect(result.status == 0, "\(result.stderrText)")
            return result
        }
        #expect(try !send("I am a teacher.").stderrText.contains("extracted"))  // 2 messages
        let fourth = try send("I like chess.")  // 4 messages: extraction
        #expect(fourth.stderrText.contains("4 messages: extracted 2 facts, stored 2"), "\(fourth.stderrText)")
        #expect(try !send("Nothing new here.").stderrText.contains("extracted"))  // 6
        try world.server.armFault(#"{"status":503,"path":"/v1/facts/extract"}"#)
        let failed = try send("I live in Oslo.")  // 8: extraction fails, the send does not
        #expect(failed.stderrText.contains("extracting facts failed"))
        #expect(failed.stderrText.contains("Lucid is temporarily unavailable"))
        let facts = try Records.parse(try world.sandbox.run("ps-facts", []).stdoutText)
        #expect(Set(facts.compactMap { $0["content"] as? String }) == ["User is a teacher", "User likes chess"])
        let zero = try world.sandbox.run("ps-send", ["--extract-facts-every", "0", "hi"])
        #expect(zero.status == 2)
    }

    @Test func unavailableTimedOutAndSlowAnswersAreNamed() throws {
        let world = try LucidWorld.start()
        defer { world.server.stop() }
        try world.send("Hello")
        try world.server.armFault(#"{"status":503,"path":"/v1/chat"}"#)
        let unavailable = try world.sandbox.run("ps-send", ["again"])
        #expect(unavailable.status == 8)
        #expect(unavailable.stderrText.contains("Lucid is temporarily unavailable; try again"))
        try world.server.armFault(#"{"status":504,"path":"/v1/chat"}"#)
        let gatewayTimeout = try world.sandbox.run("ps-send", ["again"])
        #expect(gatewayTimeout.status == 9)
        #expect(gatewayTimeout.stderrText.contains("the request timed out"))
        try world.server.armFault(#"{"slow":true,"pauseMs":3000}"#)
        let slow = try world.sandbox.run("ps-send", ["--idle-timeout", "1", "again"])
        #expect(slow.status == 9)
        #expect(slow.stderrText.contains("the request timed out"), "\(slow.stderrText)")
        try world.server.armFault(#"{"slow":true,"pauseMs":500}"#)
        let patient = try world.sandbox.run("ps-send", ["--idle-timeout", "5", "again"])
        #expect(patient.status == 0, "\(patient.stderrText)")
        try world.server.armFault(#"{"drop":true}"#)
        let dropped = try world.sandbox.run("ps-send", ["again"])
        #expect(dropped.status == 9)
        // Sends are never retried.
        #expect(try world.server.requestLog().filter { $0["path"] as? String == "/v1/chat" }.count == 6)
    }

    @Test func refusalsAreClear() throws {
        let world = try LucidWorld.start()
        defer { world.server.stop() }
        let fresh = try NetworkSandbox(extra: ["PAGESPACE_API_URL": world.server.baseURL, "PAGESPACE_API_KIND": "lucid"])
        let notLoggedIn = try fresh.run("ps-send", ["hello"])
        #expect(notLoggedIn.status == 4)
        #expect(notLoggedIn.stderrText.contains("run ps-auth login --api lucid"))
        #expect(try fresh.run("ps-facts", []).status == 4)
        let system = try world.sandbox.run("ps-send", ["--system", "be brief", "hello"])
        #expect(system.status == 2)
        let page = try world.sandbox.run("ps-send", ["--page", "p1", "hello"])
        #expect(page.status == 2)
        let cursor = try world.sandbox.run("ps-history", ["--cursor", "x"])
        #expect(cursor.status == 2 || cursor.status == 6, "\(cursor.stderrText)")
    }

    @Test func apisWithoutFactsOrSummariesRefuseThem() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try OpenAIBackendTests.sandbox(server)
        let facts = try sandbox.run("ps-facts", [])
        #expect(facts.status == 2)
        #expect(facts.stderrText.contains("the openai API cannot keep facts about its user"))
        let summary = try sandbox.run("ps-summary", ["generate"])
        #expect(summary.status == 2)
        #expect(summary.stderrText.contains("cannot summarise conversations"))
        let send = try sandbox.run("ps-send", ["--model", "ps-demo", "--extract-facts-every", "3", "hello"])
        #expect(send.status == 2)
        #expect(try server.requestLog().filter { $0["path"] as? String == "/v1/chat/completions" }.isEmpty)
    }
}
