import Foundation
import Testing
import TestSupport

/// ps-send looks for secrets in what it is about to send, against the local server: refused by
/// default (exit 2, where and what kind, never the secret, nothing reaches the server),
/// redacted with --redact, sent as is with --allow-secrets.
@Suite(.serialized) struct SecretGuardTests {
    // Put together at run time, so that this file holds none of their shapes.
    static let token = "ghp" + "_" + String(repeating: "aB3dE", count: 7) + "x"
    static let password = "Tr0ub4dor" + "&3x"
    static let diff = "diff --git a/.env b/.env\n+DB_HOST=db\n+DB_PASSWORD=\(password)\n"

    private func sends(_ server: LocalServer) throws -> [[String: Any]] {
        try server.requestLog().filter { $0["method"] as? String == "POST" }
    }

    private func sentBodies(_ server: LocalServer) throws -> String {
        try sends(server).map { "\($0["body"] ?? "")" }.joined(separator: "\n")
    }

    @Test func aSecretInPipedTextIsRefusedAndNothingIsSent() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        try server.clearRequestLog()
        let refused = try sandbox.run("ps-send", ["review this"], stdin: Self.diff)
        #expect(refused.status == 2, "\(refused.stderrText)")
        #expect(refused.stderrText.hasPrefix("ps-send: stdin line 3 "), "\(refused.stderrText)")
        #expect(refused.stderrText.contains("password-assignment"))
        #expect(!refused.stderrText.contains(Self.password) && refused.stdoutText.isEmpty)
        let log = try server.requestLog()
        #expect(log.isEmpty, "the server was called: \(log)")

        // In the message itself, and in an attached file, named as such.
        let inMessage = try sandbox.run("ps-send", ["use", Self.token])
        #expect(inMessage.status == 2 && inMessage.stderrText.contains("the message line 1") && inMessage.stderrText.contains("github-token"))
        #expect(!inMessage.stderrText.contains(Self.token))
        let file = sandbox.directory + "/notes.md"
        try "# notes\n\nthe token is \(Self.token)\n".write(toFile: file, atomically: true, encoding: .utf8)
        let attached = try sandbox.run("ps-send", ["--attach", file, "what is this?"])
        #expect(attached.status == 2 && attached.stderrText.contains("--attach notes.md line 3"), "\(attached.stderrText)")
        #expect(try server.requestLog().isEmpty)
    }

    @Test func redactSendsTheRestAndAllowSecretsSendsAll() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        try server.clearRequestLog()
        let redacted = try sandbox.run("ps-send", ["--redact", "review this"], stdin: Self.diff)
        #expect(redacted.status == 0, "\(redacted.stderrText)")
        #expect(redacted.stderrText.contains("redacted 1 secret in stdin: line 3 (password-assignment)"))
        let sent = try sentBodies(server)
        #expect(sent.contains("DB_PASSWORD=[REDACTED:password-assignment]") && sent.contains("DB_HOST=db"), "\(sent)")
        #expect(!sent.contains(Self.password))

        try server.clearRequestLog()
        let allowed = try sandbox.run("ps-send", ["--allow-secrets", "review this"], stdin: Self.diff)
        #expect(allowed.status == 0, "\(allowed.stderrText)")
        #expect(try sentBodies(server).contains(Self.password))

        let both = try sandbox.run("ps-send", ["--redact", "--allow-secrets", "hi"])
        #expect(both.status == 2)
    }

    /// The messages of `--history FILE` are sent too (seeding a new conversation), so they are
    /// checked like the message itself.
    @Test func aSecretInHistoryRecordsIsRefusedOrRedacted() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try OpenAIBackendTests.sandbox(server)
        let history = sandbox.directory + "/export.ndjson"
        let records = [
            #"{"id":"m1","role":"user","parts":[{"type":"text","text":"here is the diff"}]}"#,
            #"{"id":"m2","role":"assistant","content":"the token is \#(Self.token)"}"#,
        ]
        try (records.joined(separator: "\n") + "\n").write(toFile: history, atomically: true, encoding: .utf8)
        try server.clearRequestLog()
        let refused = try sandbox.run("ps-send", ["--model", "ps-demo", "--history", history, "go on"])
        #expect(refused.status == 2, "\(refused.stderrText)")
        #expect(refused.stderrText.contains("export.ndjson record 2: line 1 holds what looks like a secret (github-token)"),
                "\(refused.stderrText)")
        #expect(!refused.stderrText.contains(Self.token))
        #expect(!(try sentBodies(server)).contains(Self.token))
        let redacted = try sandbox.run("ps-send", ["--model", "ps-demo", "--redact", "--history", history, "go on"])
        #expect(redacted.status == 0, "\(redacted.stderrText)")
        let sent = try sentBodies(server)
        #expect(sent.contains("the token is [REDACTED:github-token]") && !sent.contains(Self.token), "\(sent)")
    }
}
