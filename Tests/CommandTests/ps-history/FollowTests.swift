import Foundation
import Testing
import TestSupport

/// `ps-history --follow`: the export, then the conversation live over Socket.IO (Engine.IO
/// long-polling), through disconnects, lost events, edits and deletions, each message once.
@Suite struct FollowTests {
    /// ps-history --follow running in the background, read record by record.
    final class Follower {
        let child: ChildProcess

        init(_ sandbox: NetworkSandbox, _ arguments: [String] = []) throws {
            child = try ChildProcess.spawn(
                Executables.url("ps-history").path, ["--follow"] + arguments,
                environment: Run.environment(sandbox.environment))
        }

        /// The next `count` records, each within `timeout` seconds.
        func records(_ count: Int, timeout: TimeInterval = 30) throws -> [[String: Any]] {
            try (0..<count).map { _ in
                let line = child.readStdoutLine(timeout: timeout)
                guard !line.isEmpty else { throw LocalServerError("ps-history --follow wrote no record within \(timeout) s") }
                guard let record = try JSONSerialization.jsonObject(with: line) as? [String: Any] else {
                    throw LocalServerError("not a record: \(String(decoding: line, as: UTF8.self))")
                }
                return record
            }
        }

        /// Ctrl-C, then what was left on stdout and stderr, and the exit status.
        func interrupt() -> ProcessResult {
            usleep(300_000)  // room for a record that should not come
            child.signalGroup(SIGINT)
            return child.collect(input: nil, timeout: 30)
        }
    }

    static func text(_ record: [String: Any]) -> String { Records.text(of: record) }

    /// Waits until the follower's socket is in the conversation's room.
    static func waitUntilJoined(_ server: LocalServer, _ conversationID: String = LocalServer.globalConversationID) throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if try server.request("GET", "/_test/realtime").text.contains("\"conv:\(conversationID)\"") { return }
            usleep(50_000)
        }
        throw LocalServerError("the follower never joined conv:\(conversationID)")
    }

    static func send(_ sandbox: NetworkSandbox, _ arguments: [String]) throws {
        let sent = try sandbox.run("ps-send", arguments)
        #expect(sent.status == 0, "\(sent.stderrText)")
    }

    @Test func messagesWrittenDuringADisconnectArriveOnceInOrder() throws {
        let server = try LocalServer.start(extraArguments: ["--pace-ms", "2", "--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let follower = try Follower(sandbox)
        var written = try follower.records(6)  // the export
        try Self.waitUntilJoined(server)

        try Self.send(sandbox, ["first live question"])
        let live = try follower.records(2)
        try #require(live.count == 2)
        #expect(Self.text(live[0]) == "first live question")
        #expect(live[1]["role"] as? String == "assistant")
        written += live

        // The realtime service goes away; two turns happen meanwhile; it comes back.
        #expect(try server.request("POST", "/_test/realtime/outage").status == 200)
        try Self.send(sandbox, ["gap question one"])
        try Self.send(sandbox, ["gap question two"])
        #expect(try server.request("DELETE", "/_test/realtime/outage").status == 200)
        let gap = try follower.records(4)
        try #require(gap.count == 4)
        #expect(gap.map { $0["role"] as? String } == ["user", "assistant", "user", "assistant"])
        #expect(Self.text(gap[0]) == "gap question one")
        #expect(Self.text(gap[2]) == "gap question two")
        #expect(Self.text(gap[1]).contains("gap question one"))
        written += gap

        try Self.send(sandbox, ["after the gap"])
        written += try follower.records(2)
        let end = follower.interrupt()
        #expect(end.status == 130, "\(end.stderrText)")
        #expect(end.stdoutText.isEmpty, "written again: \(end.stdoutText)")
        // Said once when it went, once when it came back with what was caught up: no counter.
        let notices = end.stderrText.split(separator: "\n")
        #expect(notices.filter { $0.contains("realtime connection lost") && $0.hasSuffix("reconnecting…") }.count == 1,
                "\(end.stderrText)")
        #expect(notices.filter { $0.contains("reconnect") }.count == 2, "\(end.stderrText)")
        #expect(notices.contains { $0.hasSuffix("reconnected, caught up 4 messages") }, "\(end.stderrText)")
        #expect(!end.stderrText.contains("attempt"), "\(end.stderrText)")

        // Every message once, in the server's order: the same as an export made now.
        let exported = try Records.parse(try sandbox.run("ps-history", []).stdoutText)
        #expect(Records.ids(written) == Records.ids(exported))
        #expect(Set(Records.ids(written)).count == written.count)
    }

    /// --since now: nothing of the conversation before; --since ID: what came after it only.
    @Test func followingCanStartFromNowOrAfterAMessage() throws {
        let server = try LocalServer.start(extraArguments: ["--pace-ms", "2", "--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let exported = try Records.parse(try sandbox.run("ps-history", []).stdoutText)
        try #require(exported.count == 6)

        let fromNow = try Follower(sandbox, ["--since", "now"])
        try Self.waitUntilJoined(server)
        try Self.send(sandbox, ["a question from now on"])
        let live = try fromNow.records(2)
        #expect(live.map { Self.text($0) }.first == "a question from now on", "\(live)")
        #expect(fromNow.interrupt().status == 130)

        let ids = Records.ids(exported)
        let afterFourth = try Follower(sandbox, ["--since", ids[3]])
        let rest = try afterFourth.records(4)
        #expect(Records.ids(rest) == Array(ids[4...]) + Records.ids(live), "\(Records.ids(rest))")
        let end = afterFourth.interrupt()
        #expect(end.status == 130 && end.stdoutText.isEmpty, "\(end.stdoutText)")

        let unknown = try sandbox.run("ps-history", ["--follow", "--since", "msg_nope"])
        #expect(unknown.status == 6 && unknown.stderrText.hasPrefix("ps-history: --since msg_nope: no such message"),
                "\(unknown.stderrText)")
        #expect(try sandbox.run("ps-history", ["--since", "now"]).status == 2)
    }

    @Test func editsAndDeletionsAreFollowedLiveAndAcrossAGap() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let follower = try Follower(sandbox)
        let seeded = try follower.records(6)
        try #require(seeded.count == 6)
        try Self.waitUntilJoined(server)
        let ids = Records.ids(seeded)

        // Live. The server announces a Global edit as an assistant message with text only;
        // the record keeps the writer's role.
        #expect(try sandbox.run("ps-message", ["edit", ids[2], "edited live"]).status == 0)
        let edited = try #require(try follower.records(1).first)
        #expect(edited["id"] as? String == ids[2])
        #expect(edited["updated"] as? Bool == true)
        #expect(edited["role"] as? String == "user")
        #expect(Self.text(edited) == "edited live")
        #expect(try sandbox.run("ps-message", ["delete", ids[3]]).status == 0)
        let deleted = try #require(try follower.records(1).first)
        #expect(deleted["id"] as? String == ids[3])
        #expect(deleted["deleted"] as? Bool == true)
        #expect(deleted["conversationId"] as? String == LocalServer.globalConversationID)

        // During a disconnect: told after the reconnection, from the newest history page.
        #expect(try server.request("POST", "/_test/realtime/outage").status == 200)
        #expect(try sandbox.run("ps-message", ["edit", ids[4], "edited in the gap"]).status == 0)
        #expect(try sandbox.run("ps-message", ["delete", ids[5]]).status == 0)
        #expect(try server.request("DELETE", "/_test/realtime/outage").status == 200)
        let healed = try follower.records(2)
        try #require(healed.count == 2)
        #expect(healed[0]["id"] as? String == ids[4])
        #expect(healed[0]["updated"] as? Bool == true)
        #expect(Self.text(healed[0]) == "edited in the gap")
        #expect(healed[1]["id"] as? String == ids[5])
        #expect(healed[1]["deleted"] as? Bool == true)
        let end = follower.interrupt()
        #expect(end.status == 130)
        #expect(end.stdoutText.isEmpty, "written again: \(end.stdoutText)")
    }

    @Test func anUndoInAnAgentConversationDeletesWhatItRemoved() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let agent = ["--page", "page_agent_demo", "--conversation", "demoagentconversation"]
        let before = try Records.parse(try sandbox.run("ps-history", agent).stdoutText)
        try #require(before.count >= 2)
        let follower = try Follower(sandbox, agent)
        #expect(try Records.ids(follower.records(before.count)) == Records.ids(before))
        try Self.waitUntilJoined(server, "demoagentconversation")

        let undone = Records.ids(before).suffix(2)
        #expect(try sandbox.run("ps-message", ["undo", undone.first!]).status == 0)
        let records = try follower.records(2)
        #expect(Records.ids(records) == Array(undone))
        #expect(records.allSatisfy { $0["deleted"] as? Bool == true })
        #expect(follower.interrupt().status == 130)
    }

    @Test func aMessageTooLargeForItsEventIsFetchedWhole() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let follower = try Follower(sandbox)
        _ = try follower.records(6)
        try Self.waitUntilJoined(server)
        // Over 32 KB: the event carries only {messageRef, truncated:true}.
        let long = String(repeating: "All work and no play makes a long message. ", count: 1000)
        try Self.send(sandbox, [long])
        let records = try follower.records(2)
        try #require(records.count == 2)
        #expect(Self.text(records[0]) == long)
        #expect(records[0]["status"] == nil, "read from the history, not the event")
        #expect(Self.text(records[1]).contains("All work and no play"))
        #expect(follower.interrupt().status == 130)
    }

    @Test func aLostEventIsCaughtUpByTheJumpInRev() throws {
        let server = try LocalServer.start(extraArguments: ["--pace-ms", "2", "--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let follower = try Follower(sandbox)
        var written = try follower.records(6)
        try Self.waitUntilJoined(server)
        // The event announcing the question never arrives; the next one's rev says so.
        #expect(try server.request("POST", "/_test/realtime/lose", body: #"{"events":1}"#).status == 200)
        try Self.send(sandbox, ["is anyone there"])
        let records = try follower.records(2)
        try #require(records.count == 2)
        #expect(Self.text(records[0]) == "is anyone there")
        #expect(records[1]["role"] as? String == "assistant")
        written += records
        #expect(follower.interrupt().stdoutText.isEmpty)
        #expect(Records.ids(written) == Records.ids(try Records.parse(try sandbox.run("ps-history", []).stdoutText)))
    }

    /// Two messages, the first one's event lost: the second's event shows the jump in rev, and
    /// the lost one must come out before it (it used to come after: message 8 before 7).
    @Test func aLostEventsMessageIsWrittenBeforeTheNextOne() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let follower = try Follower(sandbox)
        _ = try follower.records(6)
        try Self.waitUntilJoined(server)
        #expect(try server.request("POST", "/_test/realtime/lose", body: #"{"events":1}"#).status == 200)
        let added = try HistoryCommandTests.append(2, to: server)
        let records = try follower.records(2)
        #expect(Records.ids(records) == added)
        #expect(follower.interrupt().stdoutText.isEmpty)
    }

    /// Ctrl-C sends the close packet: the server forgets the socket at once, not at the ping
    /// timeout (here a minute).
    @Test func endingSaysGoodbyeToTheServer() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet", "--ping-interval-ms", "30000", "--ping-timeout-ms", "30000"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let follower = try Follower(sandbox)
        _ = try follower.records(6)
        try Self.waitUntilJoined(server)
        #expect(follower.interrupt().status == 130)
        let deadline = Date().addingTimeInterval(5)
        var sessions = try server.request("GET", "/_test/realtime").text
        while Date() < deadline, sessions.contains("\"sid\"") {
            usleep(50_000)
            sessions = try server.request("GET", "/_test/realtime").text
        }
        #expect(!sessions.contains("\"sid\""), "the server still has the socket: \(sessions)")
    }

    @Test func pingsAreAnsweredSoTheSessionLives() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet", "--ping-interval-ms", "100", "--ping-timeout-ms", "400"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let follower = try Follower(sandbox)
        _ = try follower.records(6)
        try Self.waitUntilJoined(server)
        usleep(1_500_000)  // some fifteen pings
        try Self.send(sandbox, ["still there?"])
        #expect(try Self.text(#require(follower.records(2).first)) == "still there?")
        let end = follower.interrupt()
        #expect(end.status == 130)
        #expect(!end.stderrText.contains("connection lost"), "\(end.stderrText)")
    }

    @Test func theStateFileFollowsWhatWasWritten() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let state = sandbox.directory + "/state.json"
        let follower = try Follower(sandbox, ["--state", state])
        _ = try follower.records(6)
        try Self.waitUntilJoined(server)
        try Self.send(sandbox, ["remember me"])
        let reply = try #require(try follower.records(2).last?["id"] as? String)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, (try? String(contentsOfFile: state, encoding: .utf8))?.contains(reply) != true {
            usleep(50_000)
        }
        #expect(follower.interrupt().status == 130)
        // A later run starts after what the follower wrote.
        let again = try sandbox.run("ps-history", ["--state", state])
        #expect(again.status == 0)
        #expect(again.stdoutText.isEmpty, "exported twice: \(again.stdoutText)")
    }

    @Test func aReaderThatLeavesEndsAnIdleFollowQuietly() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        // The reader takes the six exported messages and leaves a second later, while the
        // follower waits on the network with nothing to write: it must notice by itself.
        let run = try sandbox.shell("""
            timeout 20 ps-history --follow | { head -n 6 > /dev/null; sleep 1; }
            echo "status ${PIPESTATUS[0]}"
            """)
        #expect(run.stdoutText == "status 141\n", "\(run.stdoutText) \(run.stderrText)")
        #expect(run.stderrText.isEmpty, "\(run.stderrText)")
    }

    @Test func refusalsAreClear() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let agent = ["--follow", "--page", "page_agent_demo", "--conversation", "demoagentconversation"]
        // An MCP key reads an agent's history but gets no realtime token.
        let mcp = try NetworkSandbox(server: server, token: LocalServer.mcpKey).run("ps-history", agent)
        #expect(mcp.status == 4, "\(mcp.stderrText)")
        #expect(mcp.stderrText.contains("an MCP key cannot follow"), "\(mcp.stderrText)")

        let sandbox = try NetworkSandbox(server: server)
        let nowhere = try sandbox.run("ps-history", ["--follow", "--realtime-url", "http://127.0.0.1:9/socket.io/"])
        #expect(nowhere.status == 9, "\(nowhere.stderrText)")
        #expect(nowhere.stderrText.contains("cannot follow the conversation"), "\(nowhere.stderrText)")

        for arguments in [["--follow", "--limit", "5"], ["--follow", "--list"], ["--follow", "--page", "page_agent_demo"],
                          ["--realtime-url", "http://x/"]] {
            let refused = try sandbox.run("ps-history", arguments)
            #expect(refused.status == 2, "\(arguments): \(refused.stderrText)")
        }

        let legacy = try LocalServer.start(dialect: "pagespace-legacy", extraArguments: ["--quiet"])
        defer { legacy.stop() }
        let (token, csrf) = try legacy.legacyLogin()
        let old = try NetworkSandbox(server: legacy, token: token).run(
            "ps-history", ["--follow"], env: ["PAGESPACE_CSRF_TOKEN": csrf, "PAGESPACE_API_KIND": "pagespace-legacy"])
        #expect(old.status == 2, "\(old.stderrText)")
        #expect(old.stderrText.contains("follow a conversation live"), "\(old.stderrText)")
    }
}
