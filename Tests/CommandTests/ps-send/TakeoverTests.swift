import Foundation
import Testing
import TestSupport

/// On today's server a second send to a conversation takes over the reply in flight
/// (takeOverConversationStreams, apps/web/src/lib/ai/chat-pipeline/start-chat-generation.ts:76-84,
/// lib/ai/core/stream-takeover.ts): the first stream ends with [DONE] and no finish.
@Suite struct TakeoverTests {
    @Test func aSecondSendTakesOverAndTheFirstSaysSo() throws {
        let server = try LocalServer.start(extraArguments: ["--pace-ms", "60"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let conversation = LocalServer.globalConversationID
        let script = """
            ps-send --conversation \(conversation) 'a long first question' > first.out 2> first.err &
            first=$!
            sleep 1
            ps-send --conversation \(conversation) 'the second question' > second.out 2> second.err
            echo "second=$?"
            wait $first
            echo "first=$?"
            """
        let result = try sandbox.shell("cd \(sandbox.directory)\n" + script)
        #expect(result.stdoutText.contains("second=0"), "\(result.stdoutText)")
        #expect(result.stdoutText.contains("first=10"), "\(result.stdoutText)")
        let firstOut = try String(contentsOfFile: sandbox.directory + "/first.out", encoding: .utf8)
        let firstErr = try String(contentsOfFile: sandbox.directory + "/first.err", encoding: .utf8)
        #expect(firstOut.hasSuffix("data: [DONE]\n\n"))
        #expect(!firstOut.contains(#""type":"finish""#))
        let lines = firstErr.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("ps-send: ") && $0.contains("another send to this conversation took over the reply") },
                "\(firstErr)")
    }

    /// A reply stopped otherwise (an abort, here the server's stop fault) is not called a takeover.
    @Test func aReplyStoppedWithoutAnotherSendIsNoTakeover() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        try server.armFault(#"{"stop":true,"afterEvents":15}"#)
        let send = try sandbox.run("ps-send", ["--conversation", LocalServer.globalConversationID, "plain words"])
        #expect(send.status == 10)
        #expect(send.stderrText.contains("no finish"))
        #expect(!send.stderrText.contains("took over"))
    }
}
