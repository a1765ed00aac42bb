import Foundation
import Testing
import TestSupport

/// What ps-send retries, and that its manual says exactly that: the reads before the send
/// (GETs) after a refused connection, a 408, a 429 or a 5xx; the send (POST) only after a
/// refused connection (nothing was sent).
@Suite struct SendRetryWordsTests {
    @Test func aRefusedConnectionIsRetriedByTheReadsAndByTheSend() throws {
        let sandbox = try NetworkSandbox(extra: ["PAGESPACE_TOKEN": "ps_sess_x", "PAGESPACE_API_URL": "http://127.0.0.1:1"])
        // Finding the current conversation is a GET: retried.
        let refused = try sandbox.run("ps-send", ["--retries", "1", "hi"])
        #expect(refused.status == 9, "\(refused.stderrText)")
        let retries = refused.stderrText.split(separator: "\n").filter { $0.contains("retrying in") }
        #expect(retries.count == 1 && retries.first?.contains("(1/1)") == true, "\(refused.stderrText)")
        // A new conversation on the current API: the send is the first request; its connection
        // was refused, so nothing was sent, and it is tried again too.
        let send = try sandbox.run("ps-send", ["--retries", "1", "--new-conversation", "hi"])
        #expect(send.status == 9, "\(send.stderrText)")
        let sendRetries = send.stderrText.split(separator: "\n").filter { $0.contains("cannot connect") && $0.contains("retrying in") }
        #expect(sendRetries.count == 1 && sendRetries.first?.contains("(1/1)") == true, "\(send.stderrText)")
        #expect(send.stderrText.split(separator: "\n").last?.hasPrefix("ps-send: cannot reach 127.0.0.1:1") == true, "\(send.stderrText)")
    }

    @Test func theManualSaysWhatIsRetried() throws {
        let page = try String(contentsOf: Executables.packageRoot.appendingPathComponent("man/ps-send.1"), encoding: .utf8)
        let words = page.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\\", with: "")
        #expect(words.contains("a refused connection included"))
        #expect(words.contains("The send itself (the POST) is retried only when the connection was refused"))
        #expect(!words.contains("never retried"))
    }
}
