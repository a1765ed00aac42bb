import Foundation
import Testing
import TestSupport

/// `ps-send --tool FILE`: the model's calls of the given executables run here, their results go
/// back, until it answers. Against the local server's openai dialect and its /api/v1, whose
/// model calls what a message names (`call:NAME{JSON}`, `then` for the next step) and then
/// quotes the results it was given, so what the model saw is checked too.
@Suite struct ClientToolTests {
    static func sandbox(_ server: LocalServer) throws -> NetworkSandbox {
        try NetworkSandbox(extra: ["PAGESPACE_API_URL": server.baseURL, "PAGESPACE_API_KIND": "openai",
                                   "PAGESPACE_TOKEN": "sk-the-credential-tools-never-see"])
    }

    /// A tool: a shell script in the sandbox that describes itself with --describe and runs `body`.
    static func tool(_ sandbox: NetworkSandbox, _ name: String, _ body: String) throws -> String {
        let path = sandbox.directory + "/tool-" + name
        let script = """
            #!/bin/sh
            if [ "$1" = --describe ]; then
                printf '%s' '{"name":"\(name)","description":"the \(name) tool","parameters":{"type":"object","properties":{}}}'
                exit 0
            fi
            \(body)

            """
        try Self.executable(path, script)
        return path
    }

    /// Written by a child process: a file the test process itself held open for writing could be
    /// inherited by a process another test forks meanwhile, and its exec then fail (ETXTBSY).
    static func executable(_ path: String, _ script: String) throws {
        let written = try Run.shell("cat > '\(path)' && chmod 755 '\(path)'", stdin: Data(script.utf8))
        try #require(written.status == 0, "\(written.stderrText)")
    }

    static func completions(_ server: LocalServer, path: String = "/v1/chat/completions") throws -> [[String: Any]] {
        try server.requestLog().filter { $0["path"] as? String == path }.compactMap { $0["body"] as? [String: Any] }
    }

    static func parts(_ message: [String: Any]?) -> [[String: Any]] { message?["parts"] as? [[String: Any]] ?? [] }

    /// Two calls in one step that can only both succeed side by side (each waits for the other),
    /// then a chain: the next step's call, then the answer quoting every result. One stream,
    /// one message through ps-parts, shown by ps-render, kept with its calls and results.
    @Test func severalCallsInAStepRunSideBySideThenAChain() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let meet = try Self.tool(sandbox, "meet", """
            input=$(cat)
            me=$(printf '%s' "$input" | jq -r .me); other=$(printf '%s' "$input" | jq -r .other); dir=$(printf '%s' "$input" | jq -r .dir)
            touch "$dir/$me"; i=0
            while [ ! -e "$dir/$other" ]; do sleep 0.1; i=$((i+1)); [ $i -gt 100 ] && { echo "$other never came" >&2; exit 1; }; done
            echo "$me met $other"
            """)
        let upper = try Self.tool(sandbox, "upper", "tr a-z A-Z")
        let env = try Self.tool(sandbox, "env", "env | cut -d= -f1 | sort | tr '\\n' ' '; env | grep -c the-credential; exit 0")
        let dir = sandbox.directory
        let message = #"call:meet{"me":"a","other":"b","dir":"\#(dir)"} call:meet{"me":"b","other":"a","dir":"\#(dir)"} "#
            + #"then call:upper{"text":"chained"} call:env"#
        let run = try sandbox.shell(
            "ps-send --model ps-demo --tool '\(meet)' --tool '\(upper)' --tool '\(env)' \"$MSG\" > '\(dir)/out.sse'"
                + " && ps-sse '\(dir)/out.sse' | ps-parts --final", env: ["MSG": message])
        #expect(run.status == 0, "\(run.stderrText)")
        #expect(run.stderrText.isEmpty, "\(run.stderrText)")
        let messages = try Records.parse(run.stdoutText)
        #expect(messages.count == 1, "one message for the whole exchange: \(messages)")
        let parts = Self.parts(messages.first)
        let calls = parts.filter { ($0["type"] as? String)?.hasPrefix("tool-") == true }
        try #require(calls.map { $0["type"] as? String } == ["tool-meet", "tool-meet", "tool-upper", "tool-env"])
        #expect(calls.allSatisfy { $0["state"] as? String == "output-available" }, "\(calls)")
        #expect(calls.prefix(2).compactMap { $0["output"] as? String } == ["a met b\n", "b met a\n"], "side by side: \(calls)")
        #expect(calls[2]["output"] as? String == "{\"TEXT\":\"CHAINED\"}")
        // A plain environment: no credential, none of the caller's variables.
        let environment = calls[3]["output"] as? String ?? ""
        #expect(environment.contains("PATH ") && environment.hasSuffix(" 0\n") && !environment.contains("PAGESPACE"), "\(environment)")
        let answer = parts.last { $0["type"] as? String == "text" }?["text"] as? String ?? ""
        #expect(answer.contains("- meet: a met b") && answer.contains("- upper: {\"TEXT\":\"CHAINED\"}"), "\(answer)")

        // Three requests: the tools offered each time, the results sent back step by step.
        let sent = try Self.completions(server)
        #expect(sent.count == 3)
        let offered = (sent.first?["tools"] as? [[String: Any]] ?? []).compactMap { ($0["function"] as? [String: Any])?["name"] as? String }
        #expect(offered == ["meet", "upper", "env"])
        let last = sent.last?["messages"] as? [[String: Any]] ?? []
        #expect(last.map { $0["role"] as? String } == ["user", "assistant", "tool", "tool", "assistant", "tool", "tool"], "\(last)")

        // Shown by ps-render, each call with its result.
        let shown = try sandbox.shell("ps-sse '\(dir)/out.sse' | ps-parts | ps-render --format plain --tools full --width 100")
        #expect(shown.status == 0, "\(shown.stderrText)")
        #expect(shown.stdoutText.contains("upper") && shown.stdoutText.contains("CHAINED") && shown.stdoutText.contains("a met b"),
                "\(shown.stdoutText)")

        // Kept with the conversation: the next send carries the calls and their results.
        let kept = try Records.parse(try sandbox.run("ps-history", []).stdoutText)
        #expect(kept.map { $0["role"] as? String } == ["user", "assistant"], "\(kept)")
        #expect(Self.parts(kept.last).filter { $0["output"] != nil }.count == 4)
        #expect(kept.last?["incomplete"] == nil)
        let next = try sandbox.run("ps-send", ["--model", "ps-demo", "thanks"])
        #expect(next.status == 0, "\(next.stderrText)")
        let again = try Self.completions(server).last?["messages"] as? [[String: Any]] ?? []
        #expect(again.filter { $0["role"] as? String == "tool" }.count == 4, "\(again)")
    }

    /// A failure, a timeout and 100 MB of output: each an error result the model is told of;
    /// the timeout and the cap also a line on stderr. The run itself succeeds.
    @Test func aFailureATimeoutAndHugeOutputAreErrorsForTheModel() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let fail = try Self.tool(sandbox, "fail", "echo 'boom: no such page' >&2; exit 3")
        let slow = try Self.tool(sandbox, "slow", "sleep 30; echo late")
        let huge = try Self.tool(sandbox, "huge", "head -c 100000000 /dev/zero | tr '\\0' x")
        let started = Date()
        let run = try sandbox.shell(
            "ps-send --model ps-demo --tool-timeout 2 --tool '\(fail)' --tool '\(slow)' --tool '\(huge)' 'call:fail call:slow call:huge'"
                + " | ps-sse | ps-parts --final")
        #expect(run.status == 0, "\(run.stderrText)")
        #expect(Date().timeIntervalSince(started) < 25, "the slow tool was stopped")
        let lines = run.stderrText.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("ps-send: warning: tool slow (") && $0.contains("took longer than 2 s (--tool-timeout)") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("ps-send: warning: tool huge (") && $0.contains("printed more than 1048576 bytes") }, "\(lines)")
        let parts = Self.parts(try Records.parse(run.stdoutText).last)
        let errors = parts.filter { $0["state"] as? String == "output-error" }.compactMap { $0["errorText"] as? String }
        #expect(errors.count == 3, "\(parts)")
        #expect(errors.contains("exited with status 3: boom: no such page"), "\(errors)")
        // The model was told each.
        let told = (try Self.completions(server).last?["messages"] as? [[String: Any]] ?? [])
            .filter { $0["role"] as? String == "tool" }.compactMap { $0["content"] as? String }
        #expect(told.count == 3 && told.contains("exited with status 3: boom: no such page"), "\(told)")
        #expect(told.contains { $0.contains("took longer than 2 s") } && told.contains { $0.contains("printed more than 1048576 bytes") }, "\(told)")
    }

    /// --max-tool-steps: a chain longer than the limit ends with exit 10, saying so; what ran is
    /// written and kept.
    @Test func theStepLimitEndsTheRun() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let upper = try Self.tool(sandbox, "upper", "tr a-z A-Z")
        let run = try sandbox.shell(
            "ps-send --model ps-demo --max-tool-steps 2 --tool '\(upper)' 'call:upper then call:upper then call:upper' | ps-sse | ps-parts --final")
        #expect(run.status == 10, "\(run.stderrText)")
        #expect(run.stderrText.contains("ps-send: the model still asks for tools after 2 steps of calls (--max-tool-steps 2)"), "\(run.stderrText)")
        let parts = Self.parts(try Records.parse(run.stdoutText).last)
        #expect(parts.filter { $0["state"] as? String == "output-available" }.count == 2, "\(parts)")
        #expect(try Self.completions(server).count == 3)
    }

    /// Only the tools given are offered: a denied one, or one never given, ends the run (exit 10)
    /// naming it, nothing run.
    @Test func aDeniedOrUnofferedToolEndsTheRun() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let upper = try Self.tool(sandbox, "upper", "touch '\(sandbox.directory)/ran'; tr a-z A-Z")
        let echo = try Self.tool(sandbox, "echo", "cat")
        let denied = try sandbox.run("ps-send", ["--model", "ps-demo", "--tool", upper, "--tool", echo, "--deny-tool", "upper", "call:upper"])
        #expect(denied.status == 10, "\(denied.stderrText)")
        #expect(denied.stderrText.contains("asks for the tool upper, which was not offered (offered: echo)"), "\(denied.stderrText)")
        let offered = (try Self.completions(server).last?["tools"] as? [[String: Any]] ?? [])
            .compactMap { ($0["function"] as? [String: Any])?["name"] as? String }
        #expect(offered == ["echo"])
        let unknown = try sandbox.run("ps-send", ["--model", "ps-demo", "--tool", echo, "call:rm_rf"])
        #expect(unknown.status == 10 && unknown.stderrText.contains("asks for the tool rm_rf, which was not offered"), "\(unknown.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.directory + "/ran"))
        let notGiven = try sandbox.run("ps-send", ["--model", "ps-demo", "--tool", echo, "--deny-tool", "upper", "hi"])
        #expect(notGiven.status == 2 && notGiven.stderrText.contains("--deny-tool upper: no tool given has that name"), "\(notGiven.stderrText)")
    }

    /// A tool's output passes the secret check before it is sent: refused (exit 2, naming the
    /// tool), or sent as [REDACTED:kind] with --redact.
    @Test func aSecretInAToolsOutputIsRefusedOrRedacted() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let token = SecretGuardTests.token
        let leak = try Self.tool(sandbox, "leak", "echo 'the deploy key is \(token)'")
        let refused = try sandbox.run("ps-send", ["--model", "ps-demo", "--tool", leak, "call:leak"])
        #expect(refused.status == 2, "\(refused.stderrText)")
        #expect(refused.stderrText.contains("ps-send: the output of tool leak line 1 holds what looks like a secret (github-token)"),
                "\(refused.stderrText)")
        #expect(!refused.stderrText.contains(token))
        #expect(try Self.completions(server).count == 1, "the output was not sent")
        let redacted = try sandbox.run("ps-send", ["--model", "ps-demo", "--redact", "--tool", leak, "call:leak"])
        #expect(redacted.status == 0, "\(redacted.stderrText)")
        let told = (try Self.completions(server).last?["messages"] as? [[String: Any]] ?? []).last?["content"] as? String
        #expect(told == "the deploy key is [REDACTED:github-token]\n", "\(told ?? "")")
        #expect(!"\(try server.requestLog())".contains(token))
    }

    /// Tools go only where the client's tools are taken; a tool that cannot describe itself, or
    /// --confirm without a terminal, is exit 2 before anything is sent.
    @Test func whereToolsAreRefused() throws {
        let pagespace = try LocalServer.start()
        defer { pagespace.stop() }
        let global = try NetworkSandbox(server: pagespace)
        let upper = try Self.tool(global, "upper", "tr a-z A-Z")
        let refused = try global.run("ps-send", ["--tool", upper, "call:upper"])
        #expect(refused.status == 2, "\(refused.stderrText)")
        #expect(refused.stderrText.contains("the pagespace API runs its own tools and takes none of the client's"), "\(refused.stderrText)")
        #expect(try pagespace.requestLog().filter { $0["method"] as? String == "POST" }.isEmpty)

        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let broken = sandbox.directory + "/broken"
        try Self.executable(broken, "#!/bin/sh\necho not json\n")
        let undescribed = try sandbox.run("ps-send", ["--model", "ps-demo", "--tool", broken, "hi"])
        #expect(undescribed.status == 2 && undescribed.stderrText.contains("--describe printed no JSON object"), "\(undescribed.stderrText)")
        let missing = try sandbox.run("ps-send", ["--model", "ps-demo", "--tool", sandbox.directory + "/nothing", "hi"])
        #expect(missing.status == 2 && missing.stderrText.contains("it must be an executable file"), "\(missing.stderrText)")
        let piped = try sandbox.run("ps-send", ["--model", "ps-demo", "--confirm", "--tool", upper, "hi"], stdin: "")
        #expect(piped.status == 2 && piped.stderrText.contains("--confirm asks on a terminal"), "\(piped.stderrText)")
        let resumed = try sandbox.run("ps-send", ["--tool", upper, "--resume", "msg_1"])
        #expect(resumed.status == 2 && resumed.stderrText.contains("--tool and --mcp go with a send"), "\(resumed.stderrText)")
        #expect(try Self.completions(server).isEmpty)
    }

    /// --confirm on a terminal (a pseudo-terminal read by pyte, Terminal/confirm_terminal.py):
    /// asked before each call, y runs it, anything else tells the model it was declined.
    @Test func confirmAsksOnATerminal() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let upper = try Self.tool(sandbox, "upper", "touch '\(sandbox.directory)/ran-'$(date +%N); tr a-z A-Z")
        let script = Executables.packageRoot.appendingPathComponent("Tests/CommandTests/Terminal/confirm_terminal.py").path
        let command = "ps-send --model ps-demo --confirm --tool '\(upper)' 'call:upper{\"n\":\"one\"} then call:upper{\"n\":\"two\"}'"
        let result = try Run.command(LiveTerminalTests.python, [script, command, "y", "n"], environment: sandbox.environment, timeout: 120)
        try #require(result.status == 0, "confirm_terminal.py failed: \(result.stderrText)")
        let screen = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let lines = screen["lines"] as? [String] ?? []
        #expect(screen["status"] as? Int == 0, "\(lines)")
        #expect(screen["prompts"] as? Int == 2, "\(lines)")
        #expect(lines.contains { $0.contains("ps-send: run tool upper with {\"n\":\"one\"}? [y/N]") }, "\(lines)")
        // The questions stand between the finished output and the live reply, which is drawn once.
        #expect(lines.filter { $0.hasPrefix("── Assistant") }.count == 1, "\(lines)")
        #expect(lines.contains { $0.contains("• upper: {\"N\":\"ONE\"}") }, "\(lines)")
        #expect(lines.contains { $0.contains("• upper: the user declined to run this call") }, "\(lines)")
        let ran = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory).filter { $0.hasPrefix("ran-") }
        #expect(ran.count == 1, "only the call said yes to ran")
    }

    /// Ctrl-C while a tool runs: the tool is stopped with its process group, exit 130.
    @Test func ctrlCStopsTheTools() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let pidFile = sandbox.directory + "/nap.pid"
        let nap = try Self.tool(sandbox, "nap", "sleep 30 & echo $! > '\(pidFile)'; wait")
        let send = try ChildProcess.spawn(Executables.url("ps-send").path, ["--model", "ps-demo", "--tool", nap, "call:nap"],
                                          environment: sandbox.environment)
        var started = false
        for _ in 0..<100 where !started {
            started = FileManager.default.fileExists(atPath: pidFile)
            if !started { usleep(100_000) }
        }
        try #require(started, "the tool never ran")
        usleep(200_000)
        send.signalGroup(SIGINT)
        let result = send.collect(input: nil, timeout: 20)
        #expect(result.status == 130, "\(result.stderrText)")
        #expect(result.stderrText.contains("ps-send: interrupted while the tools ran; they were stopped"), "\(result.stderrText)")
        let sleeper = try #require(pid_t(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        usleep(200_000)
        // Gone, or a zombie left for its new parent to reap: not running either way.
        let stat = (try? String(contentsOfFile: "/proc/\(sleeper)/stat", encoding: .utf8)) ?? ""
        let state = stat.split(separator: ")").last?.split(separator: " ").first ?? "gone"
        #expect(state == "gone" || state == "Z", "what the tool started still runs (\(stat))")
    }

    /// On a terminal each call shows as it runs: seen on screen before the tool ended.
    @Test func onATerminalACallShowsWhileItRuns() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.sandbox(server)
        let ended = sandbox.directory + "/ended"
        let nap = try Self.tool(sandbox, "nap", "sleep 2; date +%s.%N > '\(ended)'; echo rested")
        let script = Executables.packageRoot.appendingPathComponent("Tests/CommandTests/Terminal/reply_terminal.py").path
        let command = "ps-send --model ps-demo --tool '\(nap)' 'call:nap{\"minutes\":20}'"
        let result = try Run.command(LiveTerminalTests.python, [script, command, "⚙ nap"], environment: sandbox.environment, timeout: 120)
        try #require(result.status == 0, "reply_terminal.py failed: \(result.stderrText)")
        let screen = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let lines = screen["lines"] as? [String] ?? []
        #expect(screen["status"] as? Int == 0, "\(lines)")
        #expect(lines.contains { $0.contains("• nap: rested") }, "\(lines)")
        let seen = try #require(screen["watchedAt"] as? Double, "the call was never on screen: \(lines)")
        let toolEnded = try #require(Double(try String(contentsOfFile: ended, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(seen < toolEnded, "the call was on screen only after it ran")
    }

    /// PageSpace's /api/v1: the tools offered, the whole conversation sent with
    /// client_manages_history, the results back step by step.
    @Test func pageSpaceV1TakesTheClientsTools() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try PageSpaceOpenAIVariantTests.loggedIn(server, model: PageSpaceOpenAIVariantTests.agentModel)
        let upper = try Self.tool(sandbox, "upper", "tr a-z A-Z")
        let run = try sandbox.shell(
            "ps-send --new-conversation --tool '\(upper)' 'call:upper{\"a\":\"x\"} call:upper{\"b\":\"y\"} then call:upper{\"c\":\"z\"}'"
                + " | ps-sse | ps-parts --final")
        #expect(run.status == 0, "\(run.stderrText)")
        let parts = Self.parts(try Records.parse(run.stdoutText).last)
        #expect(parts.filter { $0["state"] as? String == "output-available" }.compactMap { $0["output"] as? String }
                == ["{\"A\":\"X\"}", "{\"B\":\"Y\"}", "{\"C\":\"Z\"}"], "\(parts)")
        let answer = parts.last { $0["type"] as? String == "text" }?["text"] as? String ?? ""
        #expect(answer.contains("- upper: {\"C\":\"Z\"}"), "\(answer)")
        let sent = try Self.completions(server, path: "/api/v1/chat/completions")
        #expect(sent.count == 3)
        #expect(sent.allSatisfy { $0["client_manages_history"] as? Bool == true && $0["conversation_id"] is String && $0["tools"] != nil })
        let last = sent.last?["messages"] as? [[String: Any]] ?? []
        #expect(last.map { $0["role"] as? String } == ["user", "assistant", "tool", "tool", "assistant", "tool"], "\(last)")
        // The server stored the steps, the results a request carries before its last message
        // written into its calls (back-filled); those of its last message are not (route.ts:439,
        // messages.slice(0, -1)), so the last step's call stays without its result there.
        let kept = try Records.parse(try sandbox.run("ps-history", []).stdoutText)
        let keptCalls = kept.flatMap { Self.parts($0) }.filter { $0["toolCallId"] != nil }
        #expect(keptCalls.map { $0["output"] != nil } == [true, true, false], "\(kept)")
    }
}
