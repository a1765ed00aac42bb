import Foundation
import Testing
import TestSupport

/// One script, every backend: each API kind gets a profile (logged in the way its server
/// wants), then the same commands run against each with only PS_PROFILE changed: a new
/// conversation, three turns, the export, the render, the list.
@Suite struct EveryBackendTests {
    /// How each kind's profile is made: the local server's dialect, the server URL the
    /// profile names (from the server's base URL), and the login.
    struct Backend: CustomStringConvertible, Sendable {
        let kind: String
        let dialect: String
        let login: @Sendable (NetworkSandbox, String) throws -> ProcessResult
        var description: String { kind }

        /// A server of this kind on 127.0.0.1, and a sandbox whose profile `kind` is logged in
        /// to it. The caller stops the server.
        func startLoggedIn() throws -> (server: LocalServer, sandbox: NetworkSandbox) {
            let server = try LocalServer.start(dialect: dialect, extraArguments: ["--quiet"])
            do {
                let sandbox = try NetworkSandbox()
                let login = try login(sandbox, server.baseURL)
                try #require(login.status == 0, "\(kind): \(login.stderrText)")
                return (server, sandbox)
            } catch {
                server.stop()
                throw error
            }
        }
    }

    static let backends: [Backend] = [
        Backend(kind: "pagespace", dialect: "pagespace") { sandbox, url in
            try sandbox.run("ps-auth", ["login", "--profile", "pagespace", "--server", url, "--with-token"],
                            stdin: LocalServer.sessionToken + "\n")
        },
        Backend(kind: "pagespace-legacy", dialect: "pagespace-legacy") { sandbox, url in
            try sandbox.run("ps-auth", ["login", "--profile", "pagespace-legacy", "--server", url,
                                        "--email", LocalServer.email, "--password-stdin"], stdin: LocalServer.password + "\n")
        },
        Backend(kind: "openai", dialect: "openai") { sandbox, url in
            try sandbox.run("ps-auth", ["login", "--profile", "openai", "--api", "openai", "--server", url, "--model", "ps-demo"])
        },
        Backend(kind: "lucid", dialect: "lucid") { sandbox, url in
            try sandbox.run("ps-auth", ["login", "--profile", "lucid", "--api", "lucid", "--server", url, "--user-name", "Ada"])
        },
        Backend(kind: "gemini", dialect: "gemini") { sandbox, url in
            try sandbox.run("ps-auth", ["login", "--profile", "gemini", "--api", "gemini", "--server", url, "--with-token"],
                            stdin: GeminiBackendTests.token + "\n")
        },
    ]

    /// The script every backend runs; only PS_PROFILE differs.
    static let script = """
        ps-send --new-conversation --print-ids "Plan a weekend in Lisbon" 2>ids.txt | ps-sse | ps-parts --final > turn1.ndjson
        ps-send "What should I pack?" | ps-sse | ps-parts --final > turn2.ndjson
        ps-send "And what will it cost?" | ps-sse | ps-parts --final > turn3.ndjson
        ps-history > export.ndjson
        ps-render --format plain --width 70 < export.ndjson > rendered.txt
        ps-history --list > list.ndjson
        """

    @Test(arguments: backends)
    func theSameScriptRunsAgainstEveryBackend(_ backend: Backend) throws {
        let (server, sandbox) = try backend.startLoggedIn()
        defer { server.stop() }

        let run = try sandbox.shell("cd '\(sandbox.directory)'\n" + Self.script, env: ["PS_PROFILE": backend.kind])
        #expect(run.status == 0, "\(backend): \(run.stderrText)")
        func file(_ name: String) throws -> String { try String(contentsOfFile: sandbox.directory + "/" + name, encoding: .utf8) }

        for turn in ["turn1", "turn2", "turn3"] {
            let reply = try Records.parse(try file(turn + ".ndjson")).last
            #expect(reply?["role"] as? String == "assistant", "\(backend) \(turn)")
            #expect(!Records.text(of: reply ?? [:]).isEmpty, "\(backend) \(turn)")
        }
        let conversation = try #require(Records.value("conversation", in: try file("ids.txt")), "\(backend)")
        let messages = try Records.parse(try file("export.ndjson"))
        #expect(messages.map { $0["role"] as? String } == ["user", "assistant", "user", "assistant", "user", "assistant"],
                "\(backend): \(messages.map { $0["role"] ?? "?" })")
        #expect(messages.enumerated().filter { $0.offset % 2 == 0 }.map { Records.text(of: $0.element) }
                == ["Plan a weekend in Lisbon", "What should I pack?", "And what will it cost?"], "\(backend)")
        let rendered = try file("rendered.txt")
        #expect(rendered.contains("What should I pack?") && rendered.contains("── Assistant"), "\(backend)")
        let listed = Records.ids(try Records.parse(try file("list.ndjson")))
        #expect(listed.contains(conversation), "\(backend): \(conversation) not in \(listed)")
    }
}
