import Foundation
import Testing
import TestSupport

/// stream-join and abort as the current server's handlers answer them (issue 16, "Also wrong
/// in the local server"), and the client reading those answers: a finished reply is followed
/// through its durable frame log, an evicted cursor gets `{done, resumeFromSeq}`, and abort
/// has its real reasons, its `unconfirmed` code and its rate limit.
@Suite struct StreamJoinAndAbortReadingTests {
    static let session = LocalServerTests.session

    /// The frames and the end of a join: (seq, chunk type) pairs, and the `done` object.
    static func join(_ server: LocalServer, _ messageID: String, fromSeq: Int) throws -> (frames: [(Int, String)], done: [String: Any]?, reply: HTTPReply) {
        let reply = try server.request("GET", "/api/ai/chat/stream-join/\(messageID)?fromSeq=\(fromSeq)", headers: session)
        #expect(reply.status == 200, "\(reply.text)")
        var frames: [(Int, String)] = []
        var done: [String: Any]?
        for event in reply.chunks {
            if event["done"] as? Bool == true { done = event; continue }
            frames.append((event["seq"] as? Int ?? -1, (event["chunk"] as? [String: Any])?["type"] as? String ?? ""))
        }
        return (frames, done, reply)
    }

    /// An abort's answer as "aborted code reason".
    static func outcome(_ reply: HTTPReply) throws -> String {
        let answer = try reply.jsonObject()
        return "\(answer["aborted"] as? Bool ?? false) \(answer["code"] as? String ?? "-") \(answer["reason"] as? String ?? "-")"
    }

    static func finishedReply(_ server: LocalServer, fault: String? = nil) throws -> (id: String, types: [String]) {
        if let fault { try server.armFault(fault) }
        let reply = try LocalServerTests.send(server, "please explain with a table")
        let types = reply.chunks.compactMap { $0["type"] as? String }
        #expect(types.last == "finish")
        return (try #require(reply.chunks.first?["messageId"] as? String), types)
    }

    // apps/web/src/app/api/ai/chat/stream-join/[messageId]/route.ts:141-146,192-198;
    // lib/ai/core/remote-frame-follower.ts:257-272
    @Test func aFinishedReplyIsServedFromWhatItsFrameLogStillHolds() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        // Released (the normal case): nothing to serve, reload.
        let released = try Self.finishedReply(server)
        let plain = try Self.join(server, released.id, fromSeq: 0)
        #expect(plain.frames.isEmpty)
        #expect(plain.done?["reload"] as? Bool == true && plain.done?["aborted"] as? Bool == false)
        #expect(plain.reply.headers["x-stream-join-source"] == "terminal")

        // Kept whole: the frames from the cursor, then a clean end.
        let kept = try Self.finishedReply(server, fault: #"{"frameLog":"kept"}"#)
        let whole = try Self.join(server, kept.id, fromSeq: 2)
        #expect(whole.frames.map(\.0) == Array(2..<kept.types.count))
        #expect(whole.frames.map(\.1) == Array(kept.types[2...]))
        #expect(whole.done?["reload"] == nil, "\(whole.reply.text)")
        #expect(whole.done?["aborted"] as? Bool == false)

        // Cut (no finish in it): what it holds, then reload.
        let cut = try Self.finishedReply(server, fault: #"{"frameLog":"cut","afterFrames":4}"#)
        let prefix = try Self.join(server, cut.id, fromSeq: 0)
        #expect(prefix.frames.map(\.0) == [0, 1, 2, 3])
        #expect(prefix.done?["reload"] as? Bool == true)

        // The client: a kept log gives the whole reply; a cut one what it holds, and exit 10.
        let sandbox = try NetworkSandbox(server: server)
        let resumed = try sandbox.shell("ps-send --resume \(kept.id) | ps-sse | ps-parts --final")
        #expect(resumed.status == 0, "\(resumed.stderrText)")
        let stored = try Records.parse(try sandbox.run("ps-history", []).stdoutText).first { $0["id"] as? String == kept.id }
        #expect(StreamResumeTests.content(try Records.parse(resumed.stdoutText).last) == StreamResumeTests.content(stored))
        let short = try sandbox.run("ps-send", ["--resume", cut.id])
        #expect(short.status == 10, "\(short.stderrText)")
        #expect(short.stderrText.contains("ends early (after chunk 3)"), "\(short.stderrText)")
        #expect(short.stdoutText.components(separatedBy: "\n").filter { $0.hasPrefix("data: {") }.count == 4)
        let gone = try sandbox.run("ps-send", ["--resume", released.id])
        #expect(gone.status == 6, "\(gone.stderrText)")
    }

    // apps/web/src/app/api/ai/chat/stream-join/[messageId]/route.ts:192-193;
    // lib/ai/core/stream-channel.ts:310-321 (a cursor the ring evicted)
    @Test func aCursorTheRingNoLongerHoldsGetsResumeFromSeqAndTheClientGoesOnFromThere() throws {
        let server = try LocalServer.start(extraArguments: ["--pace-ms", "120", "--quiet"])
        defer { server.stop() }
        try server.armFault(#"{"ring":3,"times":2}"#)
        let sending = try server.startRequest(
            "POST", LocalServerTests.historyPath(server), headers: try LocalServerTests.writeHeaders(server),
            body: LocalServerTests.sendBody("please explain with a table"))
        #expect(sending.waitFor(#""type":"text-delta""#))
        let messageID = try #require(
            sending.received.components(separatedBy: "\"messageId\":\"").dropFirst().first?.split(separator: "\"").first.map(String.init))
        let overflow = try server.request("GET", "/api/ai/chat/stream-join/\(messageID)?fromSeq=0", headers: Self.session)
        #expect(overflow.chunks.count == 1, "\(overflow.text)")
        let resumeFrom = try #require(overflow.chunks.first?["resumeFromSeq"] as? Int)
        #expect(resumeFrom > 0)
        #expect(overflow.chunks.first?["done"] as? Bool == true && overflow.chunks.first?["aborted"] == nil)
        _ = sending.finish()

        // The client, joining from 0 a reply whose first chunks are gone: it goes on from the
        // seq the server names, the rest stays readable, and it says what is missing (exit 10).
        let sandbox = try NetworkSandbox(server: server)
        let dir = sandbox.directory
        let run = try sandbox.shell("""
            ps-send 'please explain with a table' > '\(dir)/first.sse' &
            for i in $(seq 200); do
              ps-send --list-streams > '\(dir)/streams.ndjson'
              grep -q messageId '\(dir)/streams.ndjson' && break
              sleep 0.05
            done
            sleep 1
            id=$(sed -n 's/.*"messageId":"\\([^"]*\\)".*/\\1/p' '\(dir)/streams.ndjson' | head -n 1)
            ps-send --resume "$id" > '\(dir)/joined.sse'; echo "status=$?"
            wait
            ps-sse < '\(dir)/joined.sse' | ps-parts --final
            """)
        #expect(run.stdoutText.contains("status=10"), "\(run.stderrText)")
        #expect(run.stderrText.contains("no longer holds the reply's chunks 0-"), "\(run.stderrText)")
        #expect(run.stderrText.contains("were gone from the server when it was joined again"), "\(run.stderrText)")
        let rebuilt = try #require(try Records.parse(run.stdoutText.components(separatedBy: "\n").filter { $0.hasPrefix("{") }.joined(separator: "\n")).last)
        let text = StreamResumeTests.content(rebuilt).joined()
        #expect(!text.isEmpty, "\(run.stdoutText)")
        let joined = try String(contentsOfFile: dir + "/joined.sse", encoding: .utf8)
        #expect(joined.contains(#""type":"finish""#))
        #expect(joined.hasSuffix("data: [DONE]\n\n"))
    }

    // apps/web/src/app/api/ai/abort/route.ts:50,65-73,108-114;
    // lib/ai/core/abort-stream-anywhere.ts:22-38 (the reasons and codes)
    @Test func abortAnswersWithTheRealReasonsAndUnconfirmedWhenTheStreamGoesOn() throws {
        let server = try LocalServer.start(extraArguments: ["--pace-ms", "100", "--quiet"])
        defer { server.stop() }
        let none = try server.request("POST", "/api/ai/abort", headers: Self.session, body: #"{"conversationId":"nothing"}"#)
        #expect(try Self.outcome(none) == "false not_found No in-flight stream on this conversation")
        let broken = try server.request("POST", "/api/ai/abort", headers: Self.session, body: "{not json")
        #expect(broken.status == 500)
        #expect(try broken.jsonObject()["error"] as? String == "Failed to abort stream")

        // A stream on an instance that does not act on the abort: unconfirmed, and it goes on.
        try server.armFault(#"{"unstoppable":true}"#)
        let stream = try server.startRequest(
            "POST", LocalServerTests.historyPath(server), headers: try LocalServerTests.writeHeaders(server),
            body: LocalServerTests.sendBody("tell me about the launch"))
        #expect(stream.waitFor(#""type":"text-delta""#))
        let unconfirmed = try server.request(
            "POST", "/api/ai/abort", headers: Self.session, body: #"{"conversationId":"\#(LocalServer.globalConversationID)"}"#)
        #expect(try Self.outcome(unconfirmed)
            == "false unconfirmed The stream could not be confirmed stopped and may still be running")
        #expect(stream.finish().chunks.last?["type"] as? String == "finish")

        // An ordinary one stops.
        let stoppable = try server.startRequest(
            "POST", LocalServerTests.historyPath(server), headers: try LocalServerTests.writeHeaders(server),
            body: LocalServerTests.sendBody("tell me about the launch"))
        #expect(stoppable.waitFor(#""type":"text-delta""#))
        let stopped = try server.request(
            "POST", "/api/ai/abort", headers: Self.session, body: #"{"conversationId":"\#(LocalServer.globalConversationID)"}"#)
        #expect(try Self.outcome(stopped) == "true aborted Stream aborted by user request")
        _ = stoppable.finish()
    }

    // lib/ai/core/abort-stream-anywhere.ts:162-177 (recordPendingAbort),
    // lib/ai/core/stream-lifecycle.ts:271-351 (consumePendingAbort), global-chat-turn.ts:1269-1289
    @Test func anAbortThatFindsNothingStopsTheNextSendOnce() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let conversation = LocalServer.globalConversationID
        let none = try server.request("POST", "/api/ai/abort", headers: Self.session, body: #"{"conversationId":"\#(conversation)"}"#)
        #expect(try Self.outcome(none) == "false not_found No in-flight stream on this conversation")
        let before = try LocalServerTests.page(server, Self.session, query: "limit=2").ids
        let stopped = try LocalServerTests.send(server, "tell me about the launch", id: "pre-aborted")
        #expect(stopped.status == 200)
        #expect(stopped.chunks.isEmpty, "\(stopped.text)")
        #expect(stopped.text.hasSuffix("data: [DONE]\n\n"))
        // The question is kept, no reply is stored.
        let after = try LocalServerTests.page(server, Self.session, query: "limit=2").ids
        #expect(after.last == "pre-aborted")
        #expect(after.dropLast().last == before.last)
        // Consumed: the next send is answered.
        let answered = try LocalServerTests.send(server, "tell me about the launch")
        #expect(answered.chunks.last?["type"] as? String == "finish")
    }

    // The pre-aborted send, as ps-send says it (stream-lifecycle.ts:271-351).
    @Test func psSendSaysASendWasStoppedByAnEarlierAbort() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        _ = try server.request("POST", "/api/ai/abort", headers: Self.session,
                               body: #"{"conversationId":"\#(LocalServer.globalConversationID)"}"#)
        let stopped = try sandbox.run("ps-send", ["hello"])
        #expect(stopped.status == 10)
        #expect(stopped.stderrText.contains("ps-send: the server stopped the reply before it started: an abort"), "\(stopped.stderrText)")
        let answered = try sandbox.run("ps-send", ["hello"])
        #expect(answered.status == 0, "\(answered.stderrText)")
    }

    // apps/web/src/app/api/ai/abort/route.ts:10-16,33-48; the limiter's sliding window,
    // packages/lib/src/security/distributed-rate-limit.ts:533-550,574-650
    @Test func abortAllowsTenAMinute() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        for _ in 1...10 {
            let allowed = try server.request("POST", "/api/ai/abort", headers: Self.session, body: #"{"conversationId":"c"}"#)
            #expect(allowed.status == 200)
        }
        let limited = try server.request("POST", "/api/ai/abort", headers: Self.session, body: #"{"conversationId":"c"}"#)
        #expect(limited.status == 429)
        #expect(try limited.jsonObject()["error"] as? String == "Too many requests. Please try again later.")
        // Not progressive: Retry-After is the whole window, ceil(windowMs / 1000).
        #expect(limited.headers["retry-after"] == "60")
        // Counted before the body is read: a broken one is refused the same way.
        #expect(try server.request("POST", "/api/ai/abort", headers: Self.session, body: "{").status == 429)
    }

    // lib/ai/core/abort-stream-anywhere.ts:34-38,64-66: the one answer the user must be told
    @Test func ctrlCSaysWhenTheServerCouldNotConfirmTheStop() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        try server.armFault(#"{"slow":true,"keepAliveMs":100,"pauseMs":2000,"times":1}"#)
        try server.armFault(#"{"unstoppable":true}"#)
        let out = sandbox.directory + "/out.sse"
        let result = try sandbox.shell("""
            ps-send hello > \(out) 2> \(sandbox.directory)/err & pid=$!
            while ! grep -q '^data: ' \(out) 2>/dev/null; do sleep 0.05; done
            kill -INT $pid; wait $pid; echo "status=$?"
            """)
        #expect(result.stdoutText.contains("status=130"))
        let errors = try String(contentsOfFile: sandbox.directory + "/err", encoding: .utf8)
        #expect(errors.contains("could not confirm that the turn stopped: it may still be running"), "\(errors)")
        #expect(!errors.contains("the server stopped the turn"))
    }
}
