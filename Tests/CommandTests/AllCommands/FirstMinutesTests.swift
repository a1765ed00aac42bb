import Foundation
import Testing
import TestSupport

/// Issue 34's "first ten minutes": an explicit --profile wins over the PAGESPACE_* variables
/// (as gh's flags win over its variables), and a server name that does not resolve fails at
/// once with one line instead of being retried.
@Suite struct FirstMinutesTests {
    /// The README's own `export PAGESPACE_API_URL=… PAGESPACE_API_KIND=openai`, then a command
    /// with `--profile work`: the profile's server answers, not the environment's.
    @Test func anExplicitProfileWinsOverTheEnvironmentsServer() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let deadPort = try FreePort.take()
        let sandbox = try NetworkSandbox(extra: [
            "PAGESPACE_API_URL": "http://127.0.0.1:\(deadPort)/v1", "PAGESPACE_API_KIND": "pagespace",
            "PS_RETRIES": "0",
        ])
        let token = ["PAGESPACE_TOKEN": "token-for-the-environments-server"]
        let login = try sandbox.run("ps-auth", ["login", "--profile", "work", "--api", "openai", "--server", server.baseURL])
        #expect(login.status == 0, "\(login.stderrText)")

        let status = try sandbox.run("ps-auth", ["status", "--profile", "work"], env: token)
        #expect(status.stdoutText.contains("server: \(server.baseURL) (from "), "\(status.stdoutText)")
        #expect(!status.stdoutText.contains("PAGESPACE_API_URL"), "\(status.stdoutText)")

        let sent = try sandbox.shell("ps-send --profile work --model ps-demo 'hello there' | ps-sse | ps-parts --final", env: token)
        #expect(sent.status == 0, "\(sent.stderrText)")
        #expect(sent.stdoutText.contains(#""role":"assistant""#), "\(sent.stdoutText)")
        let log = try server.request("GET", "/_test/requests").text
        #expect(log.contains("/v1/chat/completions"))
        #expect(!log.contains("token-for-the-environments-server"), "the environment's token went to the profile's server")

        // Without --profile the environment still chooses the server.
        let fromEnvironment = try sandbox.run("ps-models", [], env: token)
        #expect(fromEnvironment.status == 9, "\(fromEnvironment.stderrText)")
        #expect(fromEnvironment.stderrText.contains("127.0.0.1:\(deadPort)"), "\(fromEnvironment.stderrText)")
    }

    @Test func aServerNameThatDoesNotResolveFailsAtOnceInOneLine() throws {
        let sandbox = try NetworkSandbox(extra: ["PS_RETRIES": "3", "PAGESPACE_TOKEN": "t"])
        for arguments in [["ps-models", "--server", "http://no-such-host.invalid", "--api", "openai"],
                          ["ps-send", "--server", "http://no-such-host.invalid", "--api", "openai", "--model", "m", "hi"]] {
            let started = Date()
            let failed = try sandbox.run(arguments[0], Array(arguments.dropFirst()))
            #expect(failed.status == 9, "\(failed.stderrText)")
            let lines = failed.stderrText.split(separator: "\n")
            #expect(lines.count == 1, "\(failed.stderrText)")
            #expect(lines.first?.hasPrefix("\(arguments[0]): cannot find the server no-such-host.invalid") == true, "\(failed.stderrText)")
            #expect(!failed.stderrText.contains("retrying"), "\(failed.stderrText)")
            #expect(Date().timeIntervalSince(started) < 3, "an unresolvable name was waited on")
        }
    }

    /// Logging in to another server on a profile that holds a login says which login it replaced.
    @Test func aSecondLoginOnTheSameProfileSaysWhatItReplaced() throws {
        let first = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { first.stop() }
        let second = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { second.stop() }
        let sandbox = try NetworkSandbox()
        let login = try sandbox.run("ps-auth", ["login", "--api", "openai", "--server", first.baseURL])
        #expect(login.status == 0, "\(login.stderrText)")
        #expect(!login.stderrText.contains("replaced"), "\(login.stderrText)")
        let again = try sandbox.run("ps-auth", ["login", "--api", "openai", "--server", first.baseURL])
        #expect(again.status == 0, "\(again.stderrText)")
        #expect(!again.stderrText.contains("replaced"), "\(again.stderrText)")

        let other = try sandbox.run("ps-auth", ["login", "--api", "openai", "--server", second.baseURL])
        #expect(other.status == 0, "\(other.stderrText)")
        #expect(other.stderrText.contains(
            "ps-auth: warning: profile default's login to \(first.baseURL) (openai API) is replaced by this one; log in with --profile NAME to keep both"),
            "\(other.stderrText)")
        let kept = try sandbox.run("ps-auth", ["login", "--profile", "second", "--api", "openai", "--server", first.baseURL])
        #expect(kept.status == 0, "\(kept.stderrText)")
        #expect(!kept.stderrText.contains("replaced"), "\(kept.stderrText)")
    }
}
