import Foundation
import Testing
import TestSupport

/// ps-send and ps-agents ask with stdout on a terminal (a pseudo-terminal read by pyte, through
/// Terminal/reply_terminal.py): the reply shown rendered and live, as `| ps-sse | ps-parts |
/// ps-render` shows it; in a pipe the raw event stream, as before.
@Suite(.serialized) struct RenderedReplyTests {
    struct Screen {
        let status: Int
        let lines: [String]
        let watchedWhileRunning: Bool
        /// Every byte that reached the terminal.
        let bytes: Data
    }

    static func onTerminal(_ command: String, watch: String = "", _ sandbox: NetworkSandbox) throws -> Screen {
        let script = Executables.packageRoot.appendingPathComponent("Tests/CommandTests/Terminal/reply_terminal.py").path
        let result = try Run.command(LiveTerminalTests.python, [script, command, watch], environment: sandbox.environment, timeout: 120)
        try #require(result.status == 0, "reply_terminal.py failed: \(result.stderrText)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        return Screen(
            status: object["status"] as? Int ?? -1, lines: object["lines"] as? [String] ?? [],
            watchedWhileRunning: object["watchedWhileRunning"] as? Bool ?? false,
            bytes: Data(base64Encoded: object["bytes"] as? String ?? "") ?? Data())
    }

    static func session(pace: Int = 0) throws -> (LocalServer, NetworkSandbox) {
        let server = try LocalServer.start(extraArguments: ["--pace-ms", String(pace)])
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        return (server, sandbox)
    }

    @Test func onATerminalTheReplyIsShownRenderedAndLive() throws {
        let (server, sandbox) = try Self.session(pace: 15)
        defer { server.stop() }
        let send = try Self.onTerminal("ps-send --new-conversation 'hello there'", watch: "Collect the context", sandbox)
        #expect(send.status == 0, "\(send.lines)")
        #expect(!send.lines.contains { $0.contains("data:") }, "\(send.lines)")
        #expect(send.lines.contains { $0.contains("Collect the context") })
        #expect(send.watchedWhileRunning, "the reply was not on screen before ps-send ended")
        // The same screen as the pipeline's.
        let pipeline = try Self.onTerminal("ps-send --new-conversation 'hello there' | ps-sse | ps-parts | ps-render", sandbox)
        #expect(pipeline.status == 0)
        #expect(send.lines == pipeline.lines)
        // --raw: the event stream all the same.
        let raw = try Self.onTerminal("ps-send --raw --new-conversation 'hello there'", sandbox)
        #expect(raw.status == 0)
        #expect(raw.lines.contains { $0.hasPrefix("data: {") })
    }

    @Test func inAPipeTheRawStreamIsWrittenAndRenderOnlyWhenAsked() throws {
        let (server, sandbox) = try Self.session()
        defer { server.stop() }
        let piped = try sandbox.run("ps-send", ["--new-conversation", "hello there"])
        #expect(piped.status == 0, "\(piped.stderrText)")
        let lines = piped.stdoutText.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("data: ") }, "\(piped.stdoutText)")
        #expect(piped.stdoutText.hasSuffix("data: [DONE]\n\n"))
        // --render in a pipe: the bytes the pipeline writes there.
        let rendered = try sandbox.run("ps-send", ["--render", "--new-conversation", "hello there"])
        let pipeline = try sandbox.shell("ps-send --new-conversation 'hello there' | ps-sse | ps-parts | ps-render")
        #expect(rendered.status == 0 && pipeline.status == 0, "\(rendered.stderrText)")
        #expect(rendered.stdoutText == pipeline.stdoutText)
        #expect(rendered.stdoutText.contains("Collect the context"))
        let both = try sandbox.run("ps-send", ["--raw", "--render", "hi"])
        #expect(both.status == 2)
    }

    @Test func aCutReplyOnATerminalExitsAsThePipelineDoes() throws {
        let (server, sandbox) = try Self.session()
        defer { server.stop() }
        try server.armFault(#"{"stop":true,"afterEvents":5}"#)
        let send = try Self.onTerminal("ps-send --new-conversation 'plain words please'", sandbox)
        #expect(send.status == 10, "\(send.lines)")
        #expect(send.lines.contains { $0.contains("no finish") }, "\(send.lines)")
        #expect(!send.lines.contains { $0.contains("data:") })
    }

    @Test func psAgentsAskOnATerminalShowsTheAnswerRendered() throws {
        let (server, sandbox) = try Self.session()
        defer { server.stop() }
        let ask = try Self.onTerminal("ps-agents ask page_agent_demo 'What changed?'", sandbox)
        #expect(ask.status == 0, "\(ask.lines)")
        #expect(!ask.lines.contains { $0.contains("data:") }, "\(ask.lines)")
        #expect(ask.lines.contains { $0.contains("Assistant") }, "\(ask.lines)")
        let piped = try sandbox.run("ps-agents", ["ask", "page_agent_demo", "What changed?"])
        #expect(piped.status == 0 && piped.stdoutText.hasPrefix("data: {"), "\(piped.stderrText)")
    }
}
