import Foundation
import Testing
import TestSupport

/// ps-send as a user runs it against the local server: how a reply's end is judged, ids,
/// piped context, aborts.
@Suite(.serialized) struct SendCommandTests {
    static let dialects = ["pagespace", "pagespace-legacy"]

    @Test(arguments: dialects) func aReplyStoppedOnTheServerIsIncomplete(dialect: String) throws {
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

        try server.armFault(#"{"stop":true,"afterEvents":5}"#)
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
}
