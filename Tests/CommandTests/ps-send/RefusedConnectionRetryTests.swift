import Foundation
import Testing
import TestSupport

/// A refused connection means nothing of the request was sent, so even the send (a POST) is
/// tried again, as --retries allows; the server comes up meanwhile and the reply arrives.
@Suite struct RefusedConnectionRetryTests {
    @Test func aSendWhoseConnectionWasRefusedIsTriedAgain() throws {
        let port = try FreePort.take()
        let sandbox = try NetworkSandbox(extra: [
            "PAGESPACE_API_URL": "http://127.0.0.1:\(port)/v1", "PAGESPACE_API_KIND": "openai", "PS_RETRIES": "3",
        ])
        // Nothing listens yet: the first tries are refused; the server starts after 0.3 s, and
        // the retries (after 0.5 s, then 1 s) find it.
        let started = LockedServer()
        let starter = Thread {
            usleep(300_000)
            started.server = try? LocalServer.start(dialect: "openai", extraArguments: ["--quiet", "--port", "\(port)"])
        }
        starter.start()
        defer { started.server?.stop() }
        let sent = try sandbox.shell("ps-send --model ps-demo 'hello there' | ps-sse | ps-parts --final")
        #expect(sent.status == 0, "\(sent.stderrText)")
        #expect(sent.stderrText.contains("cannot connect ("), "\(sent.stderrText)")
        #expect(sent.stderrText.contains("retrying in 500ms (1/3)"), "\(sent.stderrText)")
        #expect(sent.stdoutText.contains(#""role":"assistant""#), "\(sent.stdoutText)")
    }

    @Test func withNoRetriesARefusedSendFailsAtOnce() throws {
        let port = try FreePort.take()
        let sandbox = try NetworkSandbox(extra: [
            "PAGESPACE_API_URL": "http://127.0.0.1:\(port)/v1", "PAGESPACE_API_KIND": "openai", "PS_RETRIES": "0",
        ])
        let refused = try sandbox.run("ps-send", ["--model", "ps-demo", "hello there"])
        #expect(refused.status == 9)
        #expect(refused.stderrText.contains("cannot reach 127.0.0.1:\(port)"), "\(refused.stderrText)")
        #expect(!refused.stderrText.contains("retrying"))
    }
}

private final class LockedServer: @unchecked Sendable {
    private let lock = NSLock()
    private var value: LocalServer?
    var server: LocalServer? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
