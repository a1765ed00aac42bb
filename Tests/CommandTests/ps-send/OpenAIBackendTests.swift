import Foundation
import Testing
import TestSupport

/// The openai API kind end to end against the local server's openai dialect (a plain
/// OpenAI-compatible server, no credential): the client keeps each conversation and sends it
/// whole; ps-sse | ps-parts | ps-render read its chat.completion.chunk stream.
@Suite struct OpenAIBackendTests {
    static func sandbox(_ server: LocalServer) throws -> NetworkSandbox {
        try NetworkSandbox(extra: ["PAGESPACE_API_URL": server.baseURL, "PAGESPACE_API_KIND": "openai"])
    }

    @Test func threeTurnsAreKeptAndSentWhole() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        for question in ["First question", "Second question", "Third question"] {
            let turn = try sandbox.shell(
                "ps-send --model ps-demo --system 'Answer briefly.' '\(question)' | ps-sse | ps-parts --final")
            #expect(turn.status == 0, "\(turn.stderrText)")
            let reply = try #require(try Records.parse(turn.stdoutText).last)
            #expect(reply["role"] as? String == "assistant")
        }
        let list = try sandbox.run("ps-history", ["--list"])
        let conversations = try Records.parse(list.stdoutText)
        #expect(conversations.count == 1, "\(list.stdoutText)")
        #expect(conversations.first?["messageCount"] as? Int == 6)
        #expect(conversations.first?["title"] as? String == "First question")
        let export = try sandbox.run("ps-history", [])
        let messages = try Records.parse(export.stdoutText)
        #expect(messages.map { $0["role"] as? String } == ["user", "assistant", "user", "assistant", "user", "assistant"])
        let texts = messages.compactMap { (($0["parts"] as? [[String: Any]])?.first?["text"]) as? String }
        #expect(texts.filter { $0.hasSuffix("question") } == ["First question", "Second question", "Third question"])
        // The whole conversation went with the third message, the system prompt first.
        let log = try #require(try JSONSerialization.jsonObject(with: Data(try server.request("GET", "/_test/requests").text.utf8)) as? [[String: Any]])
        let sends = log.filter { $0["path"] as? String == "/v1/chat/completions" }
        #expect(sends.count == 3)
        let sent = try #require((sends.last?["body"] as? [String: Any])?["messages"] as? [[String: Any]])
        #expect(sent.map { $0["role"] as? String } == ["system", "user", "assistant", "user", "assistant", "user"])
        #expect(sent.first?["content"] as? String == "Answer briefly.")
        #expect(sent.last?["content"] as? String == "Third question")
        let rendered = try sandbox.shell("ps-history | ps-render --format plain --width 60")
        #expect(rendered.status == 0)
        #expect(rendered.stdoutText.contains("── User"))
    }

    @Test func aToolCallStreamsInPiecesAndUsageIsKept() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let result = try sandbox.shell("ps-send --model ps-demo 'please use a tool to read the page' | ps-sse | ps-parts --final")
        #expect(result.status == 10, "\(result.stderrText)")  // the reply waits for a tool (ClientKeptReplyTests)
        let reply = try #require(try Records.parse(result.stdoutText).last)
        let parts = try #require(reply["parts"] as? [[String: Any]])
        let call = try #require(parts.first { ($0["type"] as? String)?.hasPrefix("tool-") == true })
        #expect(call["type"] as? String == "tool-read_page")
        #expect((call["input"] as? [String: Any])?["pageId"] as? String == "page_doc_demo")
        #expect(((reply["metadata"] as? [String: Any])?["usage"] as? [String: Any])?["total_tokens"] != nil)
    }

    @Test func aCutReplyIsKeptMarkedAndReported() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        try server.armFault(#"{"drop":true,"afterEvents":3,"times":1}"#)
        let cut = try sandbox.run("ps-send", ["--model", "ps-demo", "hello"])
        #expect(cut.status == 9, "\(cut.stderrText)")
        let export = try Records.parse(try sandbox.run("ps-history", []).stdoutText)
        #expect(export.count == 2)
        #expect((export.last?["incomplete"] as? [String: Any])?["reason"] as? String == "no-finish")
    }

    @Test func refusalsAreClear() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let noModel = try sandbox.run("ps-send", ["hello"])
        #expect(noModel.status == 2)
        #expect(noModel.stderrText.contains("--model"))
        let unknown = try sandbox.run("ps-send", ["--model", "ps-demo", "--conversation", "nosuchconversation", "hi"])
        #expect(unknown.status == 6, "\(unknown.stderrText)")
        let badModel = try sandbox.run("ps-send", ["--model", "no-such-model", "hi"])
        #expect(badModel.status == 6, "\(badModel.stderrText)")
        #expect(badModel.stderrText.contains("no-such-model"))
    }

    /// The URL ps-local-server prints is the one a profile needs; given without its /v1, every
    /// command that meets the 404 says where an OpenAI-compatible base URL usually ends.
    @Test func aBaseURLWithoutV1IsToldWhereItEnds() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        #expect(server.baseURL == server.origin + "/v1")
        let hint = "; an OpenAI-compatible server's base URL usually ends in /v1 (--server \(server.baseURL))\n"
        let sandbox = try NetworkSandbox(extra: ["PAGESPACE_API_URL": server.origin, "PAGESPACE_API_KIND": "openai"])
        let send = try sandbox.run("ps-send", ["--model", "ps-demo", "hi"])
        #expect(send.status == 6, "\(send.stderrText)")
        #expect(send.stderrText.hasPrefix("ps-send: not found"), "\(send.stderrText)")
        #expect(send.stderrText.contains("(POST /chat/completions)") && send.stderrText.hasSuffix(hint), "\(send.stderrText)")
        let batch = try sandbox.run("ps-batch", ["--model", "ps-demo"], stdin: BatchTests.jobs(1))
        #expect(batch.status == 6, "\(batch.stderrText)")
        #expect((try Records.parse(batch.stdoutText).first?["error"] as? String).map { $0 + "\n" }?.hasSuffix(hint) == true,
                "\(batch.stdoutText)")
        let login = try sandbox.run("ps-auth", ["login", "--api", "openai", "--server", server.origin])
        #expect(login.status == 6, "\(login.stderrText)")
        #expect(login.stderrText.contains("(GET /models)") && login.stderrText.hasSuffix(hint), "\(login.stderrText)")
        // At the URL it printed, all is well.
        #expect(try sandbox.run("ps-auth", ["login", "--api", "openai", "--server", server.baseURL]).status == 0)
        #expect(try sandbox.run("ps-send", ["--model", "ps-demo", "hi"], env: ["PAGESPACE_API_URL": server.baseURL]).status == 0)
    }

    /// A model the server does not know: the refusal names the models the server lists. When
    /// the list cannot be had either, the refusal is said as the server gave it.
    @Test func anUnknownModelIsAnsweredWithTheServersModels() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let listed = "; the server lists ps-demo, ps-demo-mini (see ps-models)\n"
        let send = try sandbox.run("ps-send", ["--model", "llama3.2", "hi"])
        #expect(send.status == 6, "\(send.stderrText)")
        #expect(send.stderrText.hasPrefix("ps-send: not found: The model `llama3.2` does not exist"), "\(send.stderrText)")
        #expect(send.stderrText.hasSuffix(listed), "\(send.stderrText)")
        let batch = try sandbox.run("ps-batch", ["--model", "llama3.2"], stdin: BatchTests.jobs(1))
        #expect(batch.status == 6, "\(batch.stderrText)")
        #expect((try Records.parse(batch.stdoutText).first?["error"] as? String).map { $0 + "\n" }?.hasSuffix(listed) == true,
                "\(batch.stdoutText)")

        try server.armFault(#"{"status":500,"times":20,"path":"/v1/models"}"#)
        let alone = try sandbox.run("ps-send", ["--model", "llama3.2", "hi"], env: ["PS_RETRIES": "0"])
        #expect(alone.status == 6, "\(alone.stderrText)")
        #expect(alone.stderrText.hasPrefix("ps-send: not found: The model `llama3.2` does not exist"), "\(alone.stderrText)")
        #expect(!alone.stderrText.contains("lists"), "\(alone.stderrText)")
        #expect(alone.stderrText.split(separator: "\n").count == 1, "\(alone.stderrText)")
    }

    @Test func anotherBackendsExportStartsAConversation() throws {
        let pagespace = try LocalServer.start(extraArguments: ["--quiet"])
        defer { pagespace.stop() }
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let exporter = try NetworkSandbox(server: pagespace)
        let sandbox = try Self.sandbox(server)
        let dir = sandbox.directory
        let export = try exporter.shell("ps-history --conversation \(LocalServer.globalConversationID) > '\(dir)/export.ndjson'")
        #expect(export.status == 0, "\(export.stderrText)")
        let exported = try Records.parse(try String(contentsOfFile: dir + "/export.ndjson", encoding: .utf8))
        try #require(exported.count >= 2)

        let sent = try sandbox.shell("ps-send --model ps-demo --history - 'Summarise this conversation' < '\(dir)/export.ndjson' | ps-sse | ps-parts --final")
        #expect(sent.status == 0, "\(sent.stderrText)")
        // The whole export went first, then the question.
        let log = try server.requestLog().filter { $0["path"] as? String == "/v1/chat/completions" }
        let messages = try #require((log.last?["body"] as? [String: Any])?["messages"] as? [[String: Any]])
        #expect(messages.count == exported.count + 1)
        #expect(messages.last?["content"] as? String == "Summarise this conversation")
        #expect(messages.first?["content"] as? String == Records.text(of: exported[0]))
        // It is kept: the next message continues it with everything.
        #expect(try sandbox.run("ps-send", ["--model", "ps-demo", "And then?"]).status == 0)
        let kept = try Records.parse(try sandbox.run("ps-history", []).stdoutText)
        #expect(kept.count == exported.count + 4)

        let bad = try sandbox.run("ps-send", ["--model", "ps-demo", "--history", "-", "hi"], stdin: "not json\n")
        #expect(bad.status == 3)
        #expect(bad.stderrText.contains("stdin line 1"))
        let usage = try sandbox.run("ps-send", ["--model", "ps-demo", "--history", "-"], stdin: "")
        #expect(usage.status == 2)
        let refused = try exporter.run("ps-send", ["--history", dir + "/export.ndjson", "hi"])
        #expect(refused.status == 2)
        #expect(refused.stderrText.contains("cannot start a conversation from --history"))
    }
}
