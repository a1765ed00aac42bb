import Foundation
import Testing
import TestSupport

/// PageSpace's ask_user tool (apps/web/src/lib/ai/tools/ask-user-tools.ts): a reply that stops
/// on a question to the user is its own exit status (11), shown with its options, and
/// `ps-send --answer` answers it in the same conversation as the web client does
/// (lib/ai/core/ask-user-resume.ts). The twin asks when the message says "ask me".
@Suite struct AskUserTests {
    private static let question = "Which part of the workspace should I look at?"

    @Test func aQuestionIsItsOwnExitStatusAndShowsItsOptions() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)

        let asked = try sandbox.run("ps-send", ["--new-conversation", "ask me before you look"])
        #expect(asked.status == 11, "\(asked.stderrText)")
        #expect(asked.stdoutText.contains(#""toolName":"ask_user""#))
        #expect(!asked.stdoutText.contains(#""toolName":"finish""#))
        #expect(asked.stderrText.hasPrefix("ps-send: "))
        #expect(asked.stderrText.contains(Self.question) && asked.stderrText.contains("Demo Drive, Everything"))
        #expect(asked.stderrText.contains("--answer"))

        let rendered = try sandbox.shell(
            "ps-send 'ask me first' | ps-sse | ps-parts | ps-render --format markdown; echo \"send=${PIPESTATUS[0]}\"")
        #expect(rendered.stdoutText.contains("send=11"), "\(rendered.stderrText)")
        #expect(rendered.stdoutText.contains("**Scope: " + Self.question + "**"), "\(rendered.stdoutText)")
        #expect(rendered.stdoutText.contains("> 1. Demo Drive — Only the pages in Demo Drive"))
        #expect(rendered.stdoutText.contains("> 2. Everything"))
        #expect(rendered.stdoutText.contains("waiting for your answer"))

        let plain = try sandbox.shell("ps-send --render 'ask me first'", env: ["COLUMNS": "100"])
        #expect(plain.status == 11)
        #expect(plain.stdoutText.contains("? Scope: " + Self.question), "\(plain.stdoutText)")
        #expect(plain.stdoutText.contains("1. Demo Drive"))
    }

    @Test func anOptionsLabelAnswersTheGlobalAssistantAndItGoesOn() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let asked = try sandbox.run("ps-send", ["--new-conversation", "--print-ids", "ask me about the launch"])
        #expect(asked.status == 11, "\(asked.stderrText)")
        let conversation = try #require(Records.value("conversation", in: asked.stderrText))

        let answered = try sandbox.run("ps-send", ["--conversation", conversation, "--answer", "Demo Drive"])
        #expect(answered.status == 0, "\(answered.stderrText)")
        #expect(Records.streamedText(answered.stdoutText).contains(#"You answered: "Demo Drive""#))

        let history = try Records.parse(try sandbox.run("ps-history", ["--conversation", conversation]).stdoutText)
        #expect(history.map { $0["role"] as? String } == ["user", "assistant", "assistant"])
        let part = try #require((history[1]["parts"] as? [[String: Any]])?.first { $0["type"] as? String == "tool-ask_user" })
        #expect(part["state"] as? String == "output-available")
        let answers = try #require((part["output"] as? [String: Any])?["answers"] as? [[String: Any]])
        #expect(answers.count == 1)
        #expect(answers.first?["selectedLabel"] as? String == "Demo Drive")
        #expect(answers.first?["header"] as? String == "Scope")
        #expect(answers.first?["question"] as? String == Self.question)

        // Answered once: nothing is left to answer.
        let again = try sandbox.run("ps-send", ["--conversation", conversation, "--answer", "Everything"])
        #expect(again.status == 6)
        #expect(again.stderrText.hasPrefix("ps-send: ") && again.stderrText.contains("asks no question"))
    }

    @Test func freeTextAnswersAPageAgentAndPsHistoryShowsIt() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let asked = try sandbox.run("ps-send", ["--page", "page_agent_demo", "--print-ids", "please ask me first"])
        #expect(asked.status == 11, "\(asked.stderrText)")
        let conversation = try #require(Records.value("conversation", in: asked.stderrText))

        let answered = try sandbox.run("ps-send", [
            "--page", "page_agent_demo", "--conversation", conversation, "--answer", "only the roadmap page",
        ])
        #expect(answered.status == 0, "\(answered.stderrText)")
        #expect(Records.streamedText(answered.stdoutText).contains(#"You answered: "only the roadmap page""#))

        let rendered = try sandbox.shell(
            "ps-history --page page_agent_demo --conversation \(conversation) | ps-render --format markdown")
        #expect(rendered.status == 0, "\(rendered.stderrText)")
        #expect(rendered.stdoutText.contains("> Answer: only the roadmap page"), "\(rendered.stdoutText)")
        let history = try Records.parse(try sandbox.run("ps-history", ["--page", "page_agent_demo", "--conversation", conversation]).stdoutText)
        let parts = history.flatMap { message in (message["parts"] as? [[String: Any]]) ?? [] }
        let part = try #require(parts.first { $0["type"] as? String == "tool-ask_user" })
        let answers = (part["output"] as? [String: Any])?["answers"] as? [[String: Any]]
        #expect(answers?.first?["otherText"] as? String == "only the roadmap page")
        #expect(answers?.first?["selectedLabel"] == nil)
    }

    @Test func anAnswerWithNoQuestionOrOnAnotherAPIIsAClearError() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let plain = try sandbox.run("ps-send", ["--new-conversation", "--print-ids", "hello there"])
        #expect(plain.status == 0, "\(plain.stderrText)")
        let conversation = try #require(Records.value("conversation", in: plain.stderrText))
        let none = try sandbox.run("ps-send", ["--conversation", conversation, "--answer", "yes"])
        #expect(none.status == 6)
        #expect(none.stderrText.hasPrefix("ps-send: ") && none.stderrText.contains("nothing for --answer to answer"))

        let withMessage = try sandbox.run("ps-send", ["--answer", "yes", "and a message"])
        #expect(withMessage.status == 2)
        let empty = try sandbox.run("ps-send", ["--answer", " "])
        #expect(empty.status == 2 && empty.stderrText.contains("--answer needs text"))
        let noConversation = try sandbox.run("ps-send", ["--page", "page_agent_demo", "--answer", "yes"])
        #expect(noConversation.status == 2 && noConversation.stderrText.contains("needs the agent's --conversation"))
        let asking = try sandbox.run("ps-send", ["--new-conversation", "--print-ids", "ask me now"])
        let askingID = try #require(Records.value("conversation", in: asking.stderrText))
        let long = try sandbox.run("ps-send", ["--conversation", askingID, "--answer", String(repeating: "x", count: 2001)])
        #expect(long.status == 2)
        #expect(long.stderrText.contains("at most 2000 characters"))

        // One question, two answers: refused before sending, the question still open.
        let asked = try sandbox.run("ps-send", ["--new-conversation", "--print-ids", "ask me"])
        let id = try #require(Records.value("conversation", in: asked.stderrText))
        let two = try sandbox.run("ps-send", ["--conversation", id, "--answer", "Demo Drive", "--answer", "Everything"])
        #expect(two.status == 2)
        #expect(two.stderrText.contains("asks 1 question"))
        let one = try sandbox.run("ps-send", ["--conversation", id, "--answer", "Everything"])
        #expect(one.status == 0, "\(one.stderrText)")

        let openai = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { openai.stop() }
        let other = try NetworkSandbox(extra: ["PAGESPACE_API_URL": openai.baseURL, "PAGESPACE_API_KIND": "openai"])
        let refused = try other.run("ps-send", ["--answer", "yes"])
        #expect(refused.status == 2, "\(refused.stderrText)")
        #expect(refused.stderrText.contains("--answer answers PageSpace's questions"))
    }

    @Test func aMessageInsteadOfAnAnswerDismissesTheQuestion() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let asked = try sandbox.run("ps-send", ["--new-conversation", "--print-ids", "ask me"])
        let conversation = try #require(Records.value("conversation", in: asked.stderrText))
        let typed = try sandbox.run("ps-send", ["--conversation", conversation, "just look everywhere"])
        #expect(typed.status == 0, "\(typed.stderrText)")
        let history = try Records.parse(try sandbox.run("ps-history", ["--conversation", conversation]).stdoutText)
        let part = try #require((history[1]["parts"] as? [[String: Any]])?.first { $0["type"] as? String == "tool-ask_user" })
        #expect((part["output"] as? [String: Any])?["dismissed"] as? Bool == true)
        let answer = try sandbox.run("ps-send", ["--conversation", conversation, "--answer", "Everything"])
        #expect(answer.status == 6)
    }

    @Test func aReplyJoinedWithResumeThatAsksExitsTheSame() throws {
        let server = try LocalServer.start(extraArguments: ["--pace-ms", "60", "--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let dir = sandbox.directory
        let run = try sandbox.shell("""
            ps-send 'ask me' > '\(dir)/first.sse' 2>/dev/null &
            for i in $(seq 100); do
              ps-send --list-streams > '\(dir)/streams.ndjson'
              [ -s '\(dir)/streams.ndjson' ] && break
              sleep 0.05
            done
            id=$(sed -n 's/.*"messageId":"\\([^"]*\\)".*/\\1/p' '\(dir)/streams.ndjson' | head -n 1)
            ps-send --resume "$id" > '\(dir)/joined.sse'
            echo "resume=$?"
            wait
            """)
        #expect(run.stdoutText.contains("resume=11"), "\(run.stdoutText) \(run.stderrText)")
        #expect(run.stderrText.contains(Self.question))
    }

    @Test func psRenderKeepsControlSequencesOfAQuestionOffTheTerminal() throws {
        let message = #"{"id":"a","role":"assistant","parts":[{"type":"tool-ask_user","toolCallId":"q","state":"input-available","#
            + #""input":{"questions":[{"header":"H\u001b[2J","question":"Which\u001b]0;pwned\u0007 one?","#
            + #""options":[{"label":"A\u001b[31m","description":"d\u009b1m"},{"label":"B"}]}]}}]}"#
        for format in ["plain", "ansi", "markdown"] {
            let result = try Run.command("ps-render", ["--format", format], stdin: Data((message + "\n").utf8),
                                         environment: ["COLUMNS": "80"])
            #expect(result.status == 0)
            #expect(result.stdoutText.contains("Which"), "\(format): \(result.stdoutText)")
            #expect(result.stdoutText.contains("2. B"), "\(format): \(result.stdoutText)")
            #expect(!result.stdoutText.contains("pwned\u{07}") && !result.stdoutText.contains("\u{1B}[2J")
                && !result.stdoutText.contains("\u{1B}]0;") && !result.stdoutText.contains("\u{9B}"), "\(format)")
        }
    }
}
