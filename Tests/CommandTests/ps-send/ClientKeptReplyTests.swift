import Foundation
import Testing
import TestSupport

/// Where the client keeps the conversation (a plain OpenAI-compatible server, the local
/// server's openai dialect): a reply that asks for a tool stops there and says so, and a
/// reply cut short on our side (`| head`, Ctrl-C) still keeps the user's message.
@Suite struct ClientKeptReplyTests {
    static func sandbox(_ server: LocalServer) throws -> NetworkSandbox {
        try NetworkSandbox(extra: ["PAGESPACE_API_URL": server.baseURL, "PAGESPACE_API_KIND": "openai"])
    }

    @Test func aReplyThatAsksForAToolIsNotWhole() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        // The reply ends with finish_reason "tool_calls": no one here runs read_page.
        let asked = try sandbox.shell("ps-send --model ps-demo 'please use a tool to read the page' | ps-sse | ps-parts --final")
        #expect(asked.status == 10, "\(asked.stderrText)")
        #expect(asked.stderrText.contains(
            "ps-send: the reply is not whole: it asks for the tool read_page, which this client does not run"), "\(asked.stderrText)")
        #expect(asked.stderrText.split(separator: "\n").count == 1, "\(asked.stderrText)")
        // What arrived is written, and kept marked as waiting for the tool.
        let reply = try #require(try Records.parse(asked.stdoutText).last)
        #expect((reply["parts"] as? [[String: Any]])?.contains { $0["type"] as? String == "tool-read_page" } == true)
        let kept = try Records.parse(try sandbox.run("ps-history", []).stdoutText)
        #expect(kept.map { $0["role"] as? String } == ["user", "assistant"])
        let marker = try #require(kept.last?["incomplete"] as? [String: Any])
        #expect(marker["reason"] as? String == "waiting-for-tool")
        #expect((marker["detail"] as? String)?.contains("read_page") == true)
        // Read back, the kept reply says what it waits for, and is not whole (exit 10).
        let shown = try sandbox.shell("ps-history | ps-render --format plain --width 100")
        #expect(shown.status == 10, "\(shown.stderrText)")
        #expect(shown.stdoutText.contains("waiting-for-tool"), "\(shown.stdoutText)")
        // Rendered by ps-send itself, the same status and words.
        let rendered = try sandbox.run("ps-send", ["--model", "ps-demo", "--render", "please use a tool to read the page"])
        #expect(rendered.status == 10, "\(rendered.stderrText)")
        #expect(rendered.stderrText.contains("it asks for the tool read_page"), "\(rendered.stderrText)")
        // The conversation goes on: the unanswered call is not sent back.
        let next = try sandbox.run("ps-send", ["--model", "ps-demo", "Never mind, just say hello"])
        #expect(next.status == 0, "\(next.stderrText)")
        let sends = try server.requestLog().filter { $0["path"] as? String == "/v1/chat/completions" }
        let messages = try #require((sends.last?["body"] as? [String: Any])?["messages"] as? [[String: Any]])
        #expect(messages.allSatisfy { $0["tool_calls"] == nil })
        #expect(messages.last?["content"] as? String == "Never mind, just say hello")
    }

    @Test func aFirstSendCutByHeadIsKept() throws {
        // A slow reply, so that head has gone long before its end.
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet", "--pace-ms", "40"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let cut = try sandbox.shell("ps-send --model ps-demo 'Tell me a long story' | head -c 1 >/dev/null; echo \"${PIPESTATUS[0]}\"")
        #expect(cut.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "141", "\(cut.stdoutText) \(cut.stderrText)")
        #expect(cut.stderrText.isEmpty, "\(cut.stderrText)")  // quietly
        let kept = try Records.parse(try sandbox.run("ps-history", []).stdoutText)
        #expect(kept.map { $0["role"] as? String } == ["user", "assistant"], "\(kept)")
        #expect(Records.text(of: kept[0]) == "Tell me a long story")
        let marker = try #require(kept.last?["incomplete"] as? [String: Any])
        #expect(marker["reason"] as? String == "no-finish")
        #expect((marker["detail"] as? String)?.contains("reader of the output went away") == true, "\(marker)")
        // The next message continues that conversation, with the first question in it.
        let next = try sandbox.run("ps-send", ["--model", "ps-demo", "And then?"])
        #expect(next.status == 0, "\(next.stderrText)")
        let list = try Records.parse(try sandbox.run("ps-history", ["--list"]).stdoutText)
        #expect(list.count == 1, "\(list)")
        #expect(list.first?["messageCount"] as? Int == 4)
        let sends = try server.requestLog().filter { $0["path"] as? String == "/v1/chat/completions" }
        let messages = try #require((sends.last?["body"] as? [String: Any])?["messages"] as? [[String: Any]])
        #expect(messages.first?["content"] as? String == "Tell me a long story")
    }

    /// The Gemini mobile API keeps the conversation on the server, and the client remembers
    /// it as the last used before sending: a first send cut by `| head` loses nothing either.
    @Test func aGeminiFirstSendCutByHeadIsContinued() throws {
        let server = try GeminiBackendTests.start(["--pace-ms", "40"])
        defer { server.stop() }
        let sandbox = try GeminiBackendTests.sandbox(server)
        let cut = try sandbox.shell(
            "ps-send --new-conversation --print-ids 'Tell me a long story' 2>'\(sandbox.directory)/ids' | head -c 1 >/dev/null; cat '\(sandbox.directory)/ids'")
        let first = try #require(Records.value("conversation", in: cut.stdoutText), "\(cut.stdoutText) \(cut.stderrText)")
        let next = try sandbox.run("ps-send", ["--print-ids", "And then?"])
        #expect(next.status == 0, "\(next.stderrText)")
        #expect(Records.value("conversation", in: next.stderrText) == first, "\(next.stderrText)")
    }

    @Test func aFirstSendInterruptedIsKept() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet", "--pace-ms", "40"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let child = try ChildProcess.spawn(
            Executables.url("ps-send").path, ["--model", "ps-demo", "Tell me a long story"], environment: sandbox.environment)
        #expect(!child.readStdoutLine(timeout: 30).isEmpty)  // the reply has begun
        child.signalGroup(SIGINT)
        let ended = child.collect(input: nil, timeout: 30)
        #expect(ended.status == 130, "\(ended.stderrText)")
        let kept = try Records.parse(try sandbox.run("ps-history", []).stdoutText)
        #expect(kept.map { $0["role"] as? String } == ["user", "assistant"], "\(kept)")
        #expect(((kept.last?["incomplete"] as? [String: Any])?["detail"] as? String)?.contains("interrupted") == true)
    }
}
