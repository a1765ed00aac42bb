import Foundation
import Testing
import TestSupport

/// The README's lines, run as written: in bash (a reader's shell: no pipefail), one after the
/// other in one shell, in a scratch folder and HOME, against ps-local-server. Each line run here
/// is found verbatim in a ```sh block of README.md, so a changed line fails here until it is run
/// again; only the servers' addresses, and names only the reader has, are replaced.
@Suite(.serialized) struct ReadmeTests {
    static let readme: String = {
        (try? String(contentsOf: Executables.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    }()

    /// The lines of the README's ```sh blocks, block by block.
    static let blocks: [[String]] = {
        var blocks: [[String]] = [], current: [String]? = nil
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line == "```sh" { current = [] } else if line == "```" { current.map { blocks.append($0) }; current = nil } else { current?.append(line) }
        }
        return blocks
    }()

    /// One README line, and how the test runs it: `prefix` goes before it (a `timeout` for a
    /// line that follows forever), and an exit status in `ends` is its success.
    struct Step {
        let line: String
        var prefix = ""
        var ends: [Int32] = [0]
    }

    /// Runs the steps in one bash in `folder`; stops at the first that fails, naming it.
    static func run(_ steps: [Step], replacing: [(String, String)], in folder: String, sandbox: NetworkSandbox,
                    before: String = "") throws -> ProcessResult {
        let lines = blocks.joined()
        var script = "cd '\(folder)' || exit 99\n" + before + "\n"
        for step in steps {
            #expect(lines.contains(step.line), "not a line of README.md: \(step.line)")
            var command = step.line
            for (from, to) in replacing { command = command.replacingOccurrences(of: from, with: to) }
            let quoted = "'" + step.line.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
            script += step.prefix + command + "\nstatus=$?; case \" \(step.ends.map(String.init).joined(separator: " ")) \" in "
                + "*\" $status \"*) ;; *) printf 'README line failed (exit %s): %s\\n' \"$status\" \(quoted) >&2; exit 1;; esac\n"
        }
        let result = try sandbox.shell("set +o pipefail\n" + script)
        #expect(result.status == 0, "\(result.stderrText)")
        return result
    }

    static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "ps-readme-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    static func contents(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// Right after the introduction, the simplest use: log in, then `ps-send "hi"`, which on a
    /// terminal shows the answer rendered; then the pipeline, for pipes and files.
    @Test func theFirstLinesAreTheSimplestUseAndWorkAsWritten() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let folder = try Self.folder()
        let first = try #require(Self.blocks.first)
        #expect(first.count == 2 && first[1].hasPrefix(#"ps-send "hi" "#), "\(first)")
        _ = try Self.run([Step(line: first[0])], replacing: [("https://pagespace.ai", server.baseURL)], in: folder,
                         sandbox: sandbox, before: "echo \(LocalServer.sessionToken) > token.txt")

        let screen = try RenderedReplyTests.onTerminal(#"ps-send "hi""#, sandbox)
        #expect(screen.status == 0, "\(screen.lines)")
        #expect(screen.lines.contains { $0.contains("Collect the context") }, "\(screen.lines)")
        #expect(!screen.lines.contains { $0.contains("data:") }, "\(screen.lines)")

        // The pipeline is the next block, introduced as the one for pipes and files.
        let second = Self.blocks[1]
        let before = try #require(Self.readme.range(of: "```sh\n" + second.joined(separator: "\n")))
        #expect(Self.readme[..<before.lowerBound].suffix(300).contains("For pipes and files"))
        let steps = second.map { Step(line: $0) }
        let piped = try Self.run(steps, replacing: [], in: folder, sandbox: sandbox)
        #expect(piped.stdoutText.contains("Collect the context"), "\(piped.stdoutText)")
        #expect(Self.contents(folder + "/answer.sse").hasPrefix("data: {"))
        #expect(Self.contents(folder + "/export.ndjson").contains(#""role":"assistant""#))
    }

    /// The cookbook's lines that need an id take it from the commands' own lists first.
    @Test func theCookbookTakesTheIdsItNeedsFromTheLists() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet", "--pace-ms", "20"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(extra: ["PAGESPACE_TOKEN": LocalServer.sessionToken, "PAGESPACE_API_URL": server.baseURL])
        let folder = try Self.folder()
        let follow = Step(line: "", prefix: "timeout --preserve-status -s INT 3 ", ends: [0, 130])
        let steps = [
            Step(line: #"page=$(ps-agents | jq -r .id | head -n 1)        # a Page AI agent's page id (ps-agents lists them, drive by drive)"#),
            Step(line: #"git diff | ps-send --page "$page" "Review this change" | ps-sse | ps-parts | ps-render   # piped text follows the question"#),
            Step(line: #"ps-send --page "$page" "Draft the release notes" > notes.sse"#),
            Step(line: "ps-sse notes.sse | ps-parts | ps-render --format markdown > notes.md"),
            Step(line: #"conv=$(ps-history --list | jq -r .id | head -n 1)   # a conversation's id, the first ps-history --list gives"#),
            Step(line: #"ps-history --conversation "$conv" --all --state ~/.local/state/ps-conv.json >> ~/conv.ndjson"#),
            Step(line: #"ps-history --conversation "$conv" --follow | ps-parts | ps-render"#, prefix: follow.prefix, ends: follow.ends),
            Step(line: #"ps-history --conversation "$conv" --follow --since now | ps-render   # only what is said from now on"#, prefix: follow.prefix, ends: follow.ends),
            Step(line: #"ps-history --conversation "$conv" --follow --state ~/.local/state/ps-conv.json >> ~/conv.ndjson"#, prefix: follow.prefix, ends: follow.ends),
            Step(line: #"ps-history --conversation "$conv" --follow | ps-archive"#, prefix: follow.prefix, ends: follow.ends),
            Step(line: "ps-send --list-streams"),
            Step(line: #"ps-send --resume "$(ps-send --list-streams | jq -r .messageId | head -n 1)" | ps-sse | ps-parts | ps-render"#,
                 prefix: "ps-send 'a reply in flight' > /dev/null & sleep 1; "),
            Step(line: #"ps-agents create --drive "$(ps-agents drives | jq -r .id | head -n 1)" --title "Release notes" --system-prompt-file notes-prompt.md"#),
            Step(line: #"ps-keys; ps-keys revoke "$(ps-keys | jq -r 'select(.name == "old laptop") | .id')""#),
            Step(line: #"ps-batch --conversation "$conv" steps.ndjson      # all in one conversation, in order"#),
            Step(line: #"ps-history --rename "$conv" --title "Trip planning""#),
            Step(line: #"ps-history --delete "$conv""#),
        ]
        let before = """
            git init -q . && echo one > notes.txt && git add notes.txt && git -c user.name=t -c user.email=t@t commit -qm one \
            && echo two >> notes.txt && echo 'Write the release notes.' > notes-prompt.md \
            && printf '%s\\n' '{"id":"a","message":"First step"}' '{"id":"b","message":"Second step"}' > steps.ndjson || exit 98
            """
        let result = try Self.run(steps, replacing: [("old laptop", "Demo key")], in: folder, sandbox: sandbox, before: before)
        #expect(result.stdoutText.contains(#"{"id":"key_demo","revoked":true}"#), "\(result.stdoutText)")
        #expect(result.stdoutText.contains(#""title":"Trip planning""#))
        #expect(result.stdoutText.contains(#""deleted":true"#))
        #expect(Self.contents(folder + "/notes.md").contains("Collect the context"))
        let exported = Self.contents(sandbox.directory + "/conv.ndjson").split(separator: "\n")
        #expect(exported.count >= 2 && exported.allSatisfy { $0.contains(#""id":"msg_"#) }, "\(exported)")
        let log = try server.request("GET", "/_test/requests").text
        let reachedTheAgent = log.contains(#""chatId":"page_agent_demo""#), joined = log.contains("/stream-join/msg_")
        #expect(reachedTheAgent, "ps-send --page did not reach the agent")
        #expect(joined, "ps-send --resume did not join the reply in flight")
    }

    /// The OpenAI-compatible lines pick a model the server lists, and /api/v1's an agent.
    @Test func theOpenAILinesPickAModelTheServerLists() throws {
        let openai = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { openai.stop() }
        let pagespace = try LocalServer.start(extraArguments: ["--quiet"])
        defer { pagespace.stop() }
        let sandbox = try NetworkSandbox()
        let folder = try Self.folder()
        let block = try #require(Self.blocks.first { $0.first?.hasPrefix("export PAGESPACE_API_URL=http://127.0.0.1:11434/v1") == true })
        let agents = try #require(Self.blocks.first { $0.first?.contains("--profile agents < mcp-key.txt") == true })
        let before = "echo \(LocalServer.mcpKey) > mcp-key.txt; echo \(LocalServer.sessionToken) "
            + "| ps-auth login --server \(pagespace.baseURL) --with-token --profile work || exit 98"
        // The OpenAI block's export is undone before the agents' block, as a reader's new shell would.
        let steps = block.map { Step(line: $0) } + [Step(line: agents[0], prefix: "unset PAGESPACE_API_URL PAGESPACE_API_KIND; ")]
            + agents.dropFirst().map { Step(line: $0) }
        let result = try Self.run(steps, replacing: [("http://127.0.0.1:11434", openai.origin), ("https://pagespace.ai", pagespace.baseURL)],
                                  in: folder, sandbox: sandbox, before: before)
        #expect(result.stdoutText.hasPrefix("ps-demo\nps-demo-mini\n"), "\(result.stdoutText)")
        #expect(Self.contents(folder + "/chat.ndjson").split(separator: "\n").count == 4)
        #expect((result.stdoutText + result.stderrText).contains("Profile agents now uses the model ps-agent://page_agent_demo."),
                "\(result.stderrText)")
        let sentToTheAgent = try pagespace.request("GET", "/_test/requests").text.contains("/api/v1/chat/completions")
        #expect(sentToTheAgent)
    }

    /// Lucid's and Gemini's lines log in and send on their own profiles, so the default
    /// profile's login is kept.
    @Test func lucidAndGeminiUseTheirOwnProfiles() throws {
        let lucid = try LocalServer.start(dialect: "lucid", extraArguments: ["--quiet"])
        defer { lucid.stop() }
        let gemini = try LocalServer.start(dialect: "gemini", extraArguments: ["--quiet"])
        defer { gemini.stop() }
        let pagespace = try LocalServer.start(extraArguments: ["--quiet"])
        defer { pagespace.stop() }
        let sandbox = try NetworkSandbox()
        let folder = try Self.folder()
        let lucidBlock = try #require(Self.blocks.first { $0.first?.hasPrefix("ps-auth login --api lucid") == true })
        let geminiBlock = try #require(Self.blocks.first { $0.first?.hasPrefix("ps-auth login --api gemini") == true })
        let before = "echo \(LocalServer.sessionToken) | ps-auth login --server \(pagespace.baseURL) --with-token || exit 98\n"
            + "ps-local-server --print-gemini-token > id-token.txt || exit 98"
        // The block's last line starts a server to try it with: the test has one already.
        let steps = (lucidBlock + geminiBlock.filter { !$0.hasPrefix("ps-local-server") }).map { Step(line: $0) }
        let result = try Self.run(steps, replacing: [("https://lucid.example", lucid.baseURL), ("https://vm.example:8443", gemini.origin)],
                                  in: folder, sandbox: sandbox, before: before)
        #expect(!result.stderrText.contains("replaced"), "\(result.stderrText)")
        #expect(result.stderrText.contains("(profile lucid, lucid API)") && result.stderrText.contains("(profile gemini, gemini API)"))
        #expect(result.stdoutText.contains(#"{"approvalMode":"autoEdit"}"#), "\(result.stdoutText)")
        #expect(!Self.contents(folder + "/lucid.ndjson").isEmpty)
        let status = try sandbox.run("ps-auth", ["status"])
        #expect(status.stdoutText.contains("server: \(pagespace.baseURL) "), "\(status.stdoutText)")
    }
}
