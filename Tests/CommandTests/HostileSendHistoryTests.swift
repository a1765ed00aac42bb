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

    /// Every text ps-send would send is checked for secrets: the system prompt, and a tool
    /// call's input and output in --history records, not only the message and the texts.
    @Test func secretsInTheSystemPromptAndInHistoryToolPartsAreNotSent() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try OpenAIBackendTests.sandbox(server)
        let token = SecretGuardTests.token
        func sent() throws -> String {
            try server.requestLog().filter { $0["method"] as? String == "POST" }.map { "\($0["body"] ?? "")" }.joined()
        }
        try server.clearRequestLog()
        let system = try sandbox.run("ps-send", ["--model", "ps-demo", "--system", "You deploy with \(token)", "hello"])
        #expect(system.status == 2, "\(system.stderrText)")
        #expect(system.stderrText.hasPrefix("ps-send: --system line 1 holds what looks like a secret (github-token)"), "\(system.stderrText)")
        #expect(!system.stderrText.contains(token))
        #expect(try server.requestLog().filter { $0["method"] as? String == "POST" }.isEmpty)
        let redacted = try sandbox.run("ps-send", ["--model", "ps-demo", "--redact", "--system", "You deploy with \(token)", "hello"])
        #expect(redacted.status == 0, "\(redacted.stderrText)")
        #expect(redacted.stderrText.contains("redacted 1 secret in --system"), "\(redacted.stderrText)")
        #expect(try sent().contains("You deploy with [REDACTED:github-token]"))
        #expect(!(try sent()).contains(token))

        // A tool call's output in the history is sent back to the model as a "tool" message.
        let history = sandbox.directory + "/export.ndjson"
        let records = [
            #"{"id":"m1","role":"user","parts":[{"type":"text","text":"read the config"}]}"#,
            #"{"id":"m2","role":"assistant","parts":[{"type":"tool-read_page","toolCallId":"c1","state":"output-available","input":{"id":"p1"},"output":"GITHUB=\#(token)"},{"type":"text","text":"done"}]}"#,
        ]
        try (records.joined(separator: "\n") + "\n").write(toFile: history, atomically: true, encoding: .utf8)
        try server.clearRequestLog()
        let refused = try sandbox.run("ps-send", ["--model", "ps-demo", "--history", history, "go on"])
        #expect(refused.status == 2, "\(refused.stderrText)")
        #expect(refused.stderrText.contains("export.ndjson record 2: line 1 holds what looks like a secret (github-token)"), "\(refused.stderrText)")
        #expect(!(try sent()).contains(token))
        let redactedHistory = try sandbox.run("ps-send", ["--model", "ps-demo", "--redact", "--history", history, "go on"])
        #expect(redactedHistory.status == 0, "\(redactedHistory.stderrText)")
        let body = try sent()
        #expect(body.contains("[REDACTED:github-token]") && !body.contains(token), "\(body)")
    }
}
