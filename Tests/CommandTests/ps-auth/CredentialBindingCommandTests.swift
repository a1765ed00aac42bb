import Foundation
import Testing
import TestSupport

/// A credential stored at login goes to the server it was given for, and to no other: a
/// second server that logs every header it receives never sees it.
@Suite struct CredentialBindingCommandTests {
    /// What a server's request log holds of credentials: the names of the headers that carry
    /// them (their values are redacted by the server), and any stored token it saw anywhere.
    static func credentialsSeen(by server: LocalServer, tokens: [String]) throws -> [String] {
        let log = try server.requestLog()
        var seen: [String] = []
        for entry in log {
            let headers = entry["headers"] as? [String: Any] ?? [:]
            for name in ["authorization", "cookie", "x-csrf-token"] where headers[name] != nil {
                seen.append("\(entry["path"] ?? "?"): \(name)")
            }
        }
        let raw = String(decoding: try JSONSerialization.data(withJSONObject: log), as: UTF8.self)
        seen += tokens.filter { raw.contains($0) }
        return seen
    }

    @Test(arguments: LocalServer.dialects)
    func anotherServerNeverReceivesTheStoredCredential(dialect: String) throws {
        let a = try LocalServer.start(dialect: dialect)
        defer { a.stop() }
        let b = try LocalServer.start(dialect: dialect)
        defer { b.stop() }
        let sandbox = try NetworkSandbox()
        let login = try sandbox.login(a)
        try #require(login.status == 0, "\(login.stderrText)")
        let file = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: sandbox.credentialsPath))) as? [String: Any])
        let entry = try #require((file["profiles"] as? [String: Any])?["default"] as? [String: String])
        #expect(entry["origin"] == a.baseURL, "\(entry.keys)")
        // The token, and the legacy API's CSRF token, that no other server may see.
        let tokens = [entry["token"], entry["csrfToken"]].compactMap { $0 }
        #expect(tokens.count == (dialect == "pagespace" ? 1 : 2))

        // The logged-in server still gets it.
        #expect(try sandbox.run("ps-history", ["--list"]).status == 0)
        try b.clearRequestLog()

        let runs: [(String, [String], [String: String])] = [
            ("ps-history", ["--list", "--server", b.baseURL], [:]),
            ("ps-send", ["--server", b.baseURL, "hi"], [:]),
            ("ps-history", ["--list"], ["PAGESPACE_API_URL": b.baseURL]),
            ("ps-send", ["hi"], ["PAGESPACE_API_URL": b.baseURL + "/"]),
            ("ps-auth", ["status", "--server", b.baseURL], [:]),
            ("ps-auth", ["token", "--server", b.baseURL], [:]),
        ]
        for (command, arguments, env) in runs {
            let result = try sandbox.run(command, arguments, env: env)
            let what = "\(command) \(arguments) \(env)"
            #expect(result.status == 4, "\(what): \(result.stderrText)")
            #expect(result.stderrText.contains("\(command): not logged in to \(b.baseURL): profile default's credential is for \(a.baseURL)"),
                    "\(what): \(result.stderrText)")
            #expect(result.stderrText.contains("ps-auth login --server \(b.baseURL) --profile NAME"), "\(what): \(result.stderrText)")
            #expect(!result.stdoutText.contains(LocalServer.sessionToken))
        }
        #expect(try Self.credentialsSeen(by: b, tokens: tokens) == [])

        // Logging out of B neither sends nor forgets A's credential.
        let logout = try sandbox.run("ps-auth", ["logout", "--server", b.baseURL])
        #expect(logout.status == 0 && logout.stderrText.contains("Not logged in to \(b.baseURL)"), "\(logout.stderrText)")
        #expect(try Self.credentialsSeen(by: b, tokens: tokens) == [])
        #expect(try sandbox.run("ps-history", ["--list"]).status == 0)

        // The check can see a credential: one given for the run goes where the user says.
        let mine = try sandbox.run("ps-history", ["--list", "--server", b.baseURL],
                                   env: ["PAGESPACE_TOKEN": LocalServer.sessionToken, "PAGESPACE_API_KIND": "pagespace"])
        #expect(mine.stderrText.contains("not logged in") == false, "\(mine.stderrText)")
        #expect(try Self.credentialsSeen(by: b, tokens: tokens).contains { $0.hasSuffix("authorization") })
    }

    @Test func aNewLoginUnderTheSameProfileReplacesTheOldServer() throws {
        let a = try LocalServer.start()
        defer { a.stop() }
        let b = try LocalServer.start()
        defer { b.stop() }
        let sandbox = try NetworkSandbox()
        try #require(try sandbox.login(a).status == 0)
        try #require(try sandbox.login(b).status == 0)
        try a.clearRequestLog()
        #expect(try sandbox.run("ps-history", ["--list"]).status == 0)
        #expect(try sandbox.run("ps-history", ["--list", "--server", b.baseURL]).status == 0)
        let status = try sandbox.run("ps-auth", ["status", "--offline", "--server", a.baseURL])
        #expect(status.status == 4)
        #expect(status.stdoutText.contains("credential: none (the profile's is for \(b.baseURL), not sent here)"), "\(status.stdoutText)")
        #expect(try Self.credentialsSeen(by: a, tokens: [LocalServer.sessionToken]) == [])
    }
}
