import Foundation
import Testing
import TestSupport

/// ps-render as a user runs it: the built executable, real pipes, its environment.
@Suite struct PsRenderTests {
    static let golden = Executables.packageRoot.appendingPathComponent("Tests/PSRenderTests/Golden")

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: golden.appendingPathComponent(name))
    }

    @Test func plainByDefaultWhenNotATerminal() throws {
        let result = try Run.command("ps-render", [], stdin: try Self.fixture("history.ndjson"), environment: ["COLUMNS": "80"])
        #expect(result.status == 0)
        #expect(result.stdout == (try Self.fixture("history.plain.w80.txt")))
        #expect(result.stderr.isEmpty)
    }

    @Test func clicolorForceChoosesAnsi() throws {
        let result = try Run.command("ps-render", [], stdin: try Self.fixture("history.ndjson"),
                                     environment: ["CLICOLOR_FORCE": "1", "COLUMNS": "80", "TERM_PROGRAM": "WezTerm"])
        #expect(result.stdout == (try Self.fixture("history.ansi.w80.txt")))
    }

    @Test func noColorWinsOverClicolorForce() throws {
        let result = try Run.command("ps-render", [], stdin: try Self.fixture("history.ndjson"),
                                     environment: ["CLICOLOR_FORCE": "1", "NO_COLOR": "1", "COLUMNS": "80"])
        #expect(result.stdout == (try Self.fixture("history.plain.w80.txt")))
    }

    @Test func columnsSetsTheWidthAndTheFlagOverridesIt() throws {
        let byColumns = try Run.command("ps-render", [], stdin: try Self.fixture("history.ndjson"), environment: ["COLUMNS": "40"])
        #expect(byColumns.stdout == (try Self.fixture("history.plain.w40.txt")))
        let byFlag = try Run.command("ps-render", ["--width", "40", "-"], stdin: try Self.fixture("history.ndjson"),
                                     environment: ["COLUMNS": "100"])
        #expect(byFlag.stdout == (try Self.fixture("history.plain.w40.txt")))
    }

    @Test func formatsAndFlagsFromAFile() throws {
        let file = Self.golden.appendingPathComponent("history.ndjson").path
        let markdown = try Run.command("ps-render", ["--format", "markdown", "--tools", "full", "--reasoning", "hide", file])
        #expect(markdown.status == 0)
        #expect(markdown.stdout == (try Self.fixture("history.markdown.w80.full.noreasoning.txt")))
        let ansi = try Run.command("ps-render", ["--format", "ansi", "--width", "40", "--links", "osc8", file], environment: ["NO_COLOR": "1"])
        #expect(ansi.stdout == (try Self.fixture("history.ansi.w40.txt")))
    }

    static let linkMessage = Data(#"{"id":"m1","role":"assistant","parts":[{"type":"text","text":"[docs](https://d.example/x)"}]}"#.utf8 + [0x0A])

    @Test func linksFlagChoosesHyperlinksOrPrintedURLs() throws {
        let osc8 = try Run.command("ps-render", ["--format", "ansi", "--links", "osc8"], stdin: Self.linkMessage,
                                   environment: ["TMUX": "/tmp/tmux-0/default,1,0"])
        #expect(osc8.status == 0)
        #expect(osc8.stdoutText.contains("\u{1B}]8;;https://d.example/x\u{1B}\\"))
        let inline = try Run.command("ps-render", ["--format", "ansi", "--links", "inline"], stdin: Self.linkMessage,
                                     environment: ["TERM_PROGRAM": "WezTerm"])
        #expect(!inline.stdoutText.contains("\u{1B}]8;"))
        #expect(inline.stdoutText.contains(" <https://d.example/x>"))
        let plain = try Run.command("ps-render", ["--format", "plain", "--links", "osc8"], stdin: Self.linkMessage)
        #expect(plain.stdoutText.contains("docs <https://d.example/x>\n"))
        let bad = try Run.command("ps-render", ["--links", "sometimes"], stdin: Self.linkMessage)
        #expect(bad.status == 2)
    }

    /// --links auto (the default): hyperlinks on terminals known to show them, not inside tmux
    /// or on a terminal nobody knows.
    @Test(arguments: [
        (["TERM_PROGRAM": "iTerm.app"], true), (["TERM": "xterm-kitty"], true), (["VTE_VERSION": "6800"], true),
        (["TERM_PROGRAM": "iTerm.app", "TMUX": "/tmp/tmux-0/default,1,0"], false), (["TERM": "screen-256color"], false),
        (["TERM": "xterm-256color"], false), ([:], false),
    ])
    func linksAutoFollowsTheTerminal(_ environment: [String: String], _ hyperlinks: Bool) throws {
        let result = try Run.command("ps-render", ["--format", "ansi"], stdin: Self.linkMessage, environment: environment)
        #expect(result.status == 0)
        #expect(result.stdoutText.contains("\u{1B}]8;;https://d.example/x") == hyperlinks)
        #expect(result.stdoutText.contains("<https://d.example/x>") == !hyperlinks)
    }

    @Test func incompleteStreamExitsTen() throws {
        let result = try Run.command("ps-render", [], stdin: try Self.fixture("incomplete.ndjson"))
        #expect(result.status == 10)
        #expect(result.stdout == (try Self.fixture("incomplete.plain.w80.txt")))
    }

    /// A stream that ends with an `error` chunk: ps-parts' records rendered as they stream, and
    /// its one message record (--final) rendered whole, show the error the same way and both
    /// exit 10 (incomplete).
    @Test(arguments: ["plain", "markdown", "text"])
    func anErrorChunkIsShownTheSameStreamedAndWhole(format: String) throws {
        let sse = """
            data: {"type":"start","messageId":"m1"}\\n\\ndata: {"type":"text-start","id":"0"}\\n\\n\
            data: {"type":"text-delta","id":"0","delta":"Hello there"}\\n\\n\
            data: {"type":"error","errorText":"upstream model overloaded"}\\n\\ndata: [DONE]\\n\\n
            """
        func render(_ parts: String) throws -> ProcessResult {
            try Run.shell("printf '\(sse)' | ps-sse | \(parts) | ps-render --format \(format) --width 60")
        }
        let streamed = try render("ps-parts")
        let whole = try render("ps-parts --final")
        #expect(streamed.status == 10 && whole.status == 10, "\(streamed.stderrText) \(whole.stderrText)")
        // The text format writes only the reply's words; the others show the error.
        #expect(streamed.stdoutText.contains("upstream model overloaded") == (format != "text"), "\(streamed.stdoutText)")
        #expect(whole.stdoutText == streamed.stdoutText)
    }

    @Test func renderingStopsAtTheFirstBadLine() throws {
        let input = """
            {"type":"message-start","role":"assistant"}
            {"type":"part-start","index":0,"part":{"type":"text","text":"kept\\n","state":"streaming"}}
            this is not json
            {"type":"part-delta","index":7,"delta":"x"}
            {"type":"part-delta","index":0,"delta":"and continued"}

            """
        let result = try Run.command("ps-render", [], stdin: Data(input.utf8))
        #expect(result.status == 3)
        #expect(result.stdoutText.contains("kept"))
        #expect(!result.stdoutText.contains("and continued"))
        let errors = result.stderrText.split(separator: "\n")
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("ps-render: stdin: line 3: not JSON") == true)
        #expect(errors.first?.hasSuffix("not text") == true)
    }

    @Test func aReadmeGetsOneErrorNotOnePerLine() throws {
        let readme = (1...120).map { "Line \($0) of a README with *markdown*." }.joined(separator: "\n") + "\n"
        let result = try Run.command("ps-render", [], stdin: Data(readme.utf8))
        #expect(result.status == 3)
        #expect(result.stdoutText.isEmpty)
        #expect(result.stderrText.split(separator: "\n").count == 1)
    }

    @Test func rawSSEGetsTheHintToPipeItThroughPsSse() throws {
        let sse = "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"finish\"}\n\n"
        let result = try Run.command("ps-render", [], stdin: Data(sse.utf8))
        #expect(result.status == 3)
        let errors = result.stderrText.split(separator: "\n")
        #expect(errors.count == 1)
        #expect(errors.first?.contains("line 1: not JSON") == true)
        #expect(errors.first?.contains("pipe it through ps-sse and ps-parts first") == true)
    }

    @Test func eventRecordsGetAHint() throws {
        let result = try Run.command("ps-render", [], stdin: Data(#"{"event":"message","id":"","data":{"type":"start"}}"#.utf8))
        #expect(result.status == 3)
        #expect(result.stderrText.contains("line 1: an event record from ps-sse: pipe it through ps-parts first"))
    }

    @Test func closedOutputIsQuiet() throws {
        // The records come from `yes` inside the shell, so this test never writes into a closed pipe.
        let record = #"{"id":"m","role":"user","parts":[{"type":"text","text":"message"}]}"#
        let result = try Run.shell(
            "yes '\(record)' | head -n 5000 | ps-render | head -n 1; echo \"status ${PIPESTATUS[2]}\" >&2")
        #expect(result.stdoutText == "── User " + String(repeating: "─", count: 72) + "\n")
        #expect(result.stderrText == "status 141\n")
    }

    @Test func rendersARecordedHistoryThroughPsParts() throws {
        let history = Executables.packageRoot.appendingPathComponent("examples/history.ndjson").path
        let result = try Run.shell("set -o pipefail; ps-parts < '\(history)' | ps-render --width 60")
        #expect(result.status == 0)
        #expect(result.stdoutText.contains("── User ─"))
        #expect(result.stdoutText.contains("⚙ read_page · done · {\"pageId\":\"pg_launch_checklist\"}"))
        #expect(result.stdoutText.contains("Onboarding copy │ Maya"))
    }

    @Test func missingFileIsAnError() throws {
        let result = try Run.command("ps-render", ["/nonexistent/records.ndjson"])
        #expect(result.status == 1)
        #expect(result.stderrText.hasPrefix("ps-render: cannot open /nonexistent/records.ndjson"))
    }

    /// The help is a glance naming the man page; the page lists the exit statuses.
    @Test func manualListsExitStatuses() throws {
        let result = try Run.command("ps-render", ["--help"])
        #expect(result.status == 0)
        #expect(result.stdoutText.contains("man ps-render"))
        #expect(result.stdoutText.contains("--tools"))
        let page = try String(contentsOf: Executables.packageRoot.appendingPathComponent("man/ps-render.1"), encoding: .utf8)
        #expect(page.contains(".Sh \"EXIT STATUS\""))
        #expect(page.contains("10   stream incomplete"))
    }

    @Test func textFormatWritesOnlyTheReplyWordsAsTheyArrive() throws {
        let child = try ChildProcess.spawn(
            Executables.url("ps-render").path, ["--format", "text"], environment: Run.environment(), stdin: .pipe)
        child.write(Data(([
            #"{"type":"message-start","messageId":"m","role":"assistant"}"#,
            #"{"type":"part-start","index":0,"part":{"type":"reasoning","text":"thinking","state":"streaming"}}"#,
            #"{"type":"part-start","index":1,"part":{"type":"text","text":"Hello","state":"streaming"}}"#,
            #"{"type":"part-delta","index":1,"delta":" **world**\u001b[2J\n"}"#,
        ].joined(separator: "\n") + "\n").utf8))
        // The words come out while the input is still open: streamed, not held to the end.
        let first = String(decoding: child.readStdoutLine(timeout: 30), as: UTF8.self)
        #expect(first == "Hello **world**\u{241B}[2J\n")
        child.write(Data((#"{"type":"message-end","message":{"id":"m","role":"assistant","parts":[{"type":"text","text":"Hello **world**\u001b[2J\n"}]},"status":"complete"}"# + "\n").utf8))
        child.closeStdin()
        #expect(child.wait() == 0)

        // Whole messages: the user's are left out, text parts a blank line apart.
        let whole = try Run.command("ps-render", ["--format", "text"], stdin: Data(([
            #"{"id":"u","role":"user","parts":[{"type":"text","text":"question"}]}"#,
            #"{"id":"a","role":"assistant","parts":[{"type":"text","text":"one"},{"type":"tool-x","toolCallId":"c","state":"output-available","input":{},"output":1},{"type":"text","text":"two"}]}"#,
        ].joined(separator: "\n") + "\n").utf8))
        #expect(whole.status == 0)
        #expect(whole.stdoutText == "one\n\ntwo\n")
    }
}
