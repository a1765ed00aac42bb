import Foundation
import Testing
import TestSupport

/// What ps-send retries, and that its manual says exactly that: the reads before the send
/// (GETs) after a refused connection, a 408, a 429 or a 5xx; the send (POST) once.
@Suite struct SendRetryWordsTests {
    @Test func aRefusedConnectionIsRetriedByTheReadsButNotByTheSend() throws {
        let sandbox = try NetworkSandbox(extra: ["PAGESPACE_TOKEN": "ps_sess_x", "PAGESPACE_API_URL": "http://127.0.0.1:1"])
        // Finding the current conversation is a GET: retried.
        let refused = try sandbox.run("ps-send", ["--retries", "1", "hi"])
        #expect(refused.status == 9, "\(refused.stderrText)")
        let retries = refused.stderrText.split(separator: "\n").filter { $0.contains("retrying in") }
        #expect(retries.count == 1 && retries.first?.contains("(1/1)") == true, "\(refused.stderrText)")
        // A new conversation on the current API: the send is the first request, made once.
        let once = try sandbox.run("ps-send", ["--retries", "1", "--new-conversation", "hi"])
        #expect(once.status == 9, "\(once.stderrText)")
        #expect(!once.stderrText.contains("retrying"), "\(once.stderrText)")
        #expect(once.stderrText.hasPrefix("ps-send: cannot reach 127.0.0.1:1"), "\(once.stderrText)")
    }

    @Test func theManualSaysWhatIsRetried() throws {
        let page = try String(contentsOf: Executables.packageRoot.appendingPathComponent("man/ps-send.1"), encoding: .utf8)
        let words = page.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\\", with: "")
        #expect(words.contains("a refused connection included"))
        #expect(words.contains("The send itself (the POST) is made once"))
        #expect(!words.contains("never retried"))
    }
}
