import Foundation
import Testing
import TestSupport

/// One set of manners for every command: --version, options before a subcommand, errors that
/// start with the command's name, hints that name the command's own flags.
@Suite struct CommandMannersTests {
    @Test(arguments: HelpAndManualTests.documented)
    func everyCommandHasAVersion(_ command: String) throws {
        let result = try Run.command(command, ["--version"], timeout: 30)
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.range(of: #"^\#(command) 0\.[0-9]+\.0\n$"#, options: .regularExpression) != nil,
                "\(result.stdoutText)")
    }

    /// The profile and the server given before the subcommand reach it: the error names both.
    @Test(arguments: [
        ["ps-agents", "show", "x"], ["ps-keys", "revoke", "k"], ["ps-facts", "extract"], ["ps-summary", "list"],
        ["ps-auth", "token"], ["ps-message", "delete", "m1"], ["ps-facts", "search", "tea"],
    ])
    func optionsMayComeBeforeTheSubcommand(_ words: [String]) throws {
        let sandbox = try NetworkSandbox()
        let options = ["--profile", "nobody", "--server", "http://127.0.0.1:9", "--insecure"]
        let before = try sandbox.run(words[0], options + Array(words.dropFirst()))
        let after = try sandbox.run(words[0], Array(words.dropFirst()) + options)
        #expect(before.status == 4, "\(before.stderrText)")
        #expect(before.stderrText.contains("not logged in to http://127.0.0.1:9 (profile nobody)"), "\(before.stderrText)")
        #expect(before.stderrText == after.stderrText)
    }

    @Test func anOptionsValueNamedLikeASubcommandStaysAValue() throws {
        let sandbox = try NetworkSandbox()
        let result = try sandbox.run("ps-facts", ["--profile", "search", "extract"])
        #expect(result.stderrText.contains("(profile search)"), "\(result.stderrText)")
    }

    @Test(arguments: [
        ["ps-history", "--bogus"], ["ps-facts", "--bogus"], ["ps-sse", "--format", "nonesuch"], ["ps-search"],
        ["ps-history", "--direction", "sideways"], ["ps-facts", "--profile", "p", "extract", "--bogus"],
    ])
    func parserErrorsStartWithTheCommandsName(_ words: [String]) throws {
        let result = try Run.command(words[0], Array(words.dropFirst()), timeout: 30)
        #expect(result.status == 2)
        let lines = result.stderrText.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("\(words[0]): ") == true, "\(result.stderrText)")
        #expect(!result.stderrText.contains("Error:"))
        #expect(lines.count >= 2 && lines.count <= 6, "\(result.stderrText)")
        #expect(lines.dropFirst().first?.hasPrefix("Usage: \(words[0])") == true, "\(result.stderrText)")
        #expect(result.stdoutText.isEmpty)
    }

    @Test func aSearchWithoutAQuerySaysWhatIsMissing() throws {
        let result = try Run.command("ps-search", [], timeout: 30)
        #expect(result.stderrText.hasPrefix("ps-search: missing expected argument '<query>'\n"), "\(result.stderrText)")
        #expect(!result.stderrText.contains("OVERVIEW"))
    }

    @Test func theHistoryUsageNamesTheProblem() throws {
        let result = try Run.command("ps-history", ["--bogus"], timeout: 30)
        #expect(result.stderrText.hasPrefix("ps-history: unknown option '--bogus'\nUsage: ps-history [<options>]\n"),
                "\(result.stderrText)")
    }

    @Test func hintsNameTheCommandsOwnFlags() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let history = try sandbox.run("ps-history", ["--conversation", "no-such-conversation"])
        #expect(history.status == 6)
        #expect(history.stderrText.contains("ps-history --list shows them"), "\(history.stderrText)")
        #expect(!history.stderrText.contains("--new-conversation"))
        let send = try sandbox.run("ps-send", ["--conversation", "no-such-conversation", "hi"])
        #expect(send.stderrText.contains("--new-conversation starts one"), "\(send.stderrText)")

        let login = try sandbox.run("ps-auth", ["login", "--with-token", "--server", server.baseURL],
                                    stdin: "ps_sess_wrong\n", env: ["PAGESPACE_TOKEN": "", "PAGESPACE_API_URL": ""])
        #expect(login.status == 4)
        #expect(login.stderrText.hasPrefix("ps-auth: "), "\(login.stderrText)")
        #expect(!login.stderrText.contains("ps-auth login"), "\(login.stderrText)")
        #expect(login.stderrText.contains("nothing was stored"), "\(login.stderrText)")
    }

    @Test func anUnknownSettingIsNamedAsOne() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let result = try sandbox.run("ps-settings", ["--set", "bogus=1"])
        #expect(result.status == 2)
        #expect(result.stderrText.contains("not bogus"), "\(result.stderrText)")
        #expect(!result.stderrText.contains("takes a name"))
        let model = try sandbox.run("ps-settings", ["--set", "model=1"])
        #expect(model.stderrText.contains("model takes a name, not 1"), "\(model.stderrText)")
    }
}

@Suite struct AuthStatusJSONTests {
    @Test func statusAsOneJSONObject() throws {
        let sandbox = try NetworkSandbox()
        let result = try sandbox.run("ps-auth", ["status", "--json", "--profile", "work", "--server", "http://127.0.0.1:9"])
        #expect(result.status == 4)
        let object = try #require(try Records.parse(result.stdoutText).first)
        #expect(object["profile"] as? String == "work")
        #expect(object["credential"] as? String == "none")
        #expect((object["server"] as? String)?.hasPrefix("http://127.0.0.1:9") == true)
        #expect(result.stdoutLines.count == 1)
    }

    @Test func historyCompletesItsDirection() throws {
        let script = HelpAndManualTests.root.appendingPathComponent("completions/ps-history.bash").path
        let result = try Run.command("/bin/bash", ["-c", """
            source "$1"
            COMP_WORDS=(ps-history --direction ""); COMP_CWORD=2; COMP_LINE="ps-history --direction "; COMP_POINT=${#COMP_LINE}
            _ps-history ps-history "" --direction 2>/dev/null
            printf '%s\\n' "${COMPREPLY[@]}"
            """, "bash", script], timeout: 30)
        #expect(Set(result.stdoutText.split(separator: "\n").map(String.init)) == ["before", "after"], "\(result.stdoutText)")
    }
}
