import Foundation
import Testing
import TestSupport

/// Issue 31's cases for ps-send and ps-history: what a batch runner, a hostile server, a full
/// disk or a wrong state file does to them, run as a user would run the built commands.
@Suite struct HostileSendHistoryTests {
    /// A batch runner sends several messages to one conversation the client keeps, at once:
    /// every exchange is kept, each question next to its reply.
    @Test func concurrentSendsToAClientKeptConversationKeepEveryExchange() throws {
        // Paced, so that the replies overlap.
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet", "--pace-ms", "15"])
        defer { server.stop() }
        let sandbox = try ClientKeptReplyTests.sandbox(server)
        let first = try sandbox.run("ps-send", ["--model", "ps-demo", "--print-ids", "start"])
        #expect(first.status == 0, "\(first.stderrText)")
        let id = try #require(Records.value("conversation", in: first.stderrText))
        let count = 6
        let sends = (1...count).map { "ps-send --model ps-demo --conversation \(id) 'question \($0)' >/dev/null 2>>'\(sandbox.directory)/err' & " }
        let batch = try sandbox.shell(sends.joined() + "failed=0; for job in $(jobs -p); do wait $job || failed=1; done; exit $failed")
        let errors = (try? String(contentsOfFile: sandbox.directory + "/err", encoding: .utf8)) ?? ""
        #expect(batch.status == 0, "\(errors)")
        let kept = try Records.parse(try sandbox.run("ps-history", ["--conversation", id]).stdoutText)
        #expect(kept.count == 2 + 2 * count, "\(kept.map { Records.text(of: $0) })")
        // Each question is followed by its own reply; every question is there once.
        let questions = kept.filter { $0["role"] as? String == "user" }.map { Records.text(of: $0) }
        #expect(Set(questions) == Set(["start"] + (1...count).map { "question \($0)" }) && questions.count == count + 1)
        for (index, message) in kept.enumerated() {
            #expect(message["role"] as? String == (index % 2 == 0 ? "user" : "assistant"), "\(index)")
        }
    }
}
