import Foundation
import Testing
import TestSupport

/// ps-send as a user runs it against the local server: how a reply's end is judged, ids,
/// piped context, aborts.
@Suite(.serialized) struct SendCommandTests {

    @Test(arguments: LocalServer.dialects) func aReplyStoppedOnTheServerIsIncomplete(dialect: String) throws {
        let server = try LocalServer.start(dialect: dialect)
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        // The stream closes cleanly with [DONE] but without finish, as a reply aborted or taken
        // over on the server does.
        try server.armFault(#"{"stop":true,"afterEvents":5}"#)
        let send = try sandbox.run("ps-send", ["plain words please"])
        #expect(send.status == 10, "\(send.stderrText)")
        #expect(send.stderrText.contains("no finish"))
        #expect(send.stdoutText.hasSuffix("data: [DONE]\n\n"))
        #expect(!send.stdoutText.contains(#""type":"finish""#))

        try server.armFault(#"{"stop":true,"afterEvents":15}"#)
        let pipeline = try sandbox.shell("ps-send 'plain words please' | ps-sse | ps-parts --final")
        #expect(pipeline.status == 10, "\(pipeline.stderrText)")
        let message = try #require(try Records.parse(pipeline.stdoutText).last)
        #expect((message["incomplete"] as? [String: Any])?["reason"] as? String == "no-finish")
        #expect(!Records.text(of: message).isEmpty)

        // The same send uncut: whole, exit 0.
        let whole = try sandbox.shell("ps-send 'plain words please' | ps-sse | ps-parts --final")
        #expect(whole.status == 0, "\(whole.stderrText)")
        #expect(try Records.parse(whole.stdoutText).last?["incomplete"] == nil)
    }

    static func isCuid(_ id: String) -> Bool {
        id.range(of: "^[a-z][a-z0-9]{1,31}$", options: .regularExpression) != nil
    }

    @Test func aNewPageAIConversationCanBeContinued() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let first = try sandbox.run("ps-send", ["--print-ids", "--page", "page_agent_demo", "first question"])
        #expect(first.status == 0, "\(first.stderrText)")
        let id = try #require(Records.value("conversation", in: first.stderrText))
        #expect(Self.isCuid(id), "\(id)")
        let second = try sandbox.run("ps-send", ["--page", "page_agent_demo", "--conversation", id, "second question"])
        #expect(second.status == 0, "\(second.stderrText)")
        let history = try Records.parse(try sandbox.run("ps-history", ["--page", "page_agent_demo", "--conversation", id]).stdoutText)
        #expect(history.map { $0["role"] as? String } == ["user", "assistant", "user", "assistant"])
        #expect(Records.text(of: history[0]) == "first question" && Records.text(of: history[2]) == "second question")
        // The server refuses to create a conversation from an id that is not cuid-shaped.
        let odd = try sandbox.run("ps-send", ["--page", "page_agent_demo", "--conversation", "Not-A-Cuid", "hi"])
        #expect(odd.status == 1 || odd.status == 2 || odd.status == 6, "\(odd.status) \(odd.stderrText)")
        #expect(odd.stderrText.contains("Invalid conversationId"))
    }

    @Test func globalConversationsAreMadeLazilyAndUnknownOnesRefused() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let new = try sandbox.run("ps-send", ["--print-ids", "--new-conversation", "a fresh start"])
        #expect(new.status == 0, "\(new.stderrText)")
        let id = try #require(Records.value("conversation", in: new.stderrText))
        #expect(Self.isCuid(id))
        // The new conversation is the active one now, and the only one made.
        let list = Records.ids(try Records.parse(try sandbox.run("ps-history", ["--list"]).stdoutText))
        #expect(list.first == id)
        #expect(list.count == 2)
        #expect(try server.requestLog().allSatisfy { !(($0["method"] as? String) == "POST" && ($0["path"] as? String) == "/api/ai/global") })
        // A mistyped id: exit 6 with a message, for sends and exports alike.
        let unknown = try sandbox.run("ps-send", ["--conversation", "conv_nope", "hello?"])
        #expect(unknown.status == 6)
        #expect(unknown.stderrText.contains("no global conversation conv_nope"))
        #expect(try sandbox.run("ps-history", ["--conversation", "conv_nope"]).status == 6)
    }

    @Test func theLocationGoesAsContextRef() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        try server.clearRequestLog()
        #expect(try sandbox.run("ps-send", ["--drive", "drivedemo", "where am I"]).status == 0)
        #expect(try sandbox.run("ps-send", ["--page", "page_agent_demo", "--drive", "drivedemo", "and here"]).status == 0)
        let bodies = try server.requestLog().filter { ($0["method"] as? String) == "POST" }.map { String(describing: $0["body"] ?? "") }
        #expect(bodies.filter { $0.contains("contextRef") }.count == 2, "\(bodies)")
        #expect(!bodies.contains { $0.contains("locationContext") || $0.contains("pageContext") })
        // No drive lookup of our own: the server resolves the reference.
        #expect(try server.requestLog().allSatisfy { ($0["path"] as? String) != "/api/drives" })
    }

    @Test func pipedTextFollowsTheArguments() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let send = try sandbox.shell("printf 'diff --git a/x b/x\\n+added line\\n' | ps-send 'review this' > /dev/null")
        #expect(send.status == 0, "\(send.stderrText)")
        let history = try Records.parse(try sandbox.run("ps-history", []).stdoutText)
        let asked = try #require(history.last { $0["role"] as? String == "user" })
        #expect(Records.text(of: asked) == "review this\n\ndiff --git a/x b/x\n+added line")
        let big = try sandbox.shell("head -c 3000 /dev/zero | tr '\\0' x | ps-send --max-stdin-bytes 1000 'too much'")
        #expect(big.status == 2)
        #expect(big.stderrText.contains("over 1000 bytes"))
    }

    @Test func ctrlCNamesTheConversationAndSaysWhetherTheTurnStopped() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        try server.armFault(#"{"slow":true,"keepAliveMs":100,"pauseMs":2000,"times":1}"#)
        let out = sandbox.directory + "/out.sse"
        let result = try sandbox.shell("""
            ps-send --print-ids hello > \(out) 2> \(sandbox.directory)/err & pid=$!
            while ! grep -q '^data: ' \(out) 2>/dev/null; do sleep 0.05; done
            kill -INT $pid; wait $pid; echo "status=$?"
            """)
        #expect(result.stdoutText.contains("status=130"))
        let errors = try String(contentsOfFile: sandbox.directory + "/err", encoding: .utf8)
        let conversation = try #require(Records.value("conversation", in: errors))
        #expect(errors.contains("the server stopped the turn"), "\(errors)")
        let abort = try #require(try server.requestLog().first { ($0["path"] as? String) == "/api/ai/abort" })
        #expect(String(describing: abort["body"] ?? "").contains(conversation))

        // An MCP key cannot abort: said plainly, no request made.
        try server.clearRequestLog()
        try server.armFault(#"{"slow":true,"keepAliveMs":100,"pauseMs":2000,"times":1}"#)
        // Files of its own: the first run's would be found before this one truncates them.
        let mcpOut = sandbox.directory + "/mcp.sse"
        let mcp = try sandbox.shell("""
            ps-send --page page_agent_demo hello > \(mcpOut) 2> \(sandbox.directory)/mcp-err & pid=$!
            while ! grep -q '^data: ' \(mcpOut) 2>/dev/null; do sleep 0.05; done
            kill -INT $pid; wait $pid; echo "status=$?"
            """, env: ["PAGESPACE_TOKEN": LocalServer.mcpKey])
        #expect(mcp.stdoutText.contains("status=130"))
        let mcpErrors = try String(contentsOfFile: sandbox.directory + "/mcp-err", encoding: .utf8)
        #expect(mcpErrors.contains("an MCP key cannot stop a turn"), "\(mcpErrors)")
        #expect(try server.requestLog().allSatisfy { ($0["path"] as? String) != "/api/ai/abort" })
    }
}
