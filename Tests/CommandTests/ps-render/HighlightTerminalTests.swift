import Foundation
import Testing
import TestSupport

/// Fenced code coloured by its language, as a terminal shows it (ps-render on a pseudo-terminal
/// read by pyte, through Terminal/highlight_terminal.py), and as a pipe gets it.
@Suite struct HighlightTerminalTests {
    /// Each scenario says what it checks (see highlight_terminal.py); failures come back as text.
    @Test(arguments: ["colours", "nocolor", "hostile"])
    func onATerminal(_ name: String) throws {
        let script = Executables.packageRoot.appendingPathComponent("Tests/CommandTests/Terminal/highlight_terminal.py").path
        let result = try Run.command(LiveTerminalTests.python, [script, Executables.url("ps-render").path, name], timeout: 120)
        try #require(result.status == 0, "highlight_terminal.py \(name) failed: \(result.stderrText)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let failures = report["failures"] as? [String] ?? ["no failures list"]
        #expect(failures.isEmpty, "\(name): \(failures.joined(separator: "\n"))")
        #expect(report["ok"] as? Bool == true)
    }

    static let message = Data(
        #"{"id":"m1","role":"assistant","parts":[{"type":"text","text":"```python\ndef f():\n    return \"x\"\n```\n"}]}"#.utf8 + [0x0A])

    /// In a pipe: no colour (the same bytes as before highlighting existed); colour only where it
    /// is asked for, and then the text between the styles is the code's.
    @Test func aPipeGetsPlainCode() throws {
        let piped = try Run.command("ps-render", [], stdin: Self.message)
        #expect(piped.status == 0)
        #expect(piped.stdoutText.hasSuffix("\n\n```python\ndef f():\n    return \"x\"\n```\n"))
        #expect(!piped.stdout.contains(0x1B))
        let forced = try Run.command("ps-render", ["--width", "40"], stdin: Self.message, environment: ["CLICOLOR_FORCE": "1"])
        #expect(forced.stdoutText.contains("\u{1B}[35mdef\u{1B}[0m \u{1B}[34mf\u{1B}[0m():\n"))
        #expect(forced.stdoutText.contains("\u{1B}[32m\"x\"\u{1B}[0m"))
        let noColor = try Run.command("ps-render", [], stdin: Self.message, environment: ["CLICOLOR_FORCE": "1", "NO_COLOR": "1"])
        #expect(noColor.stdout == piped.stdout)
    }

    /// Without source-highlight's definitions (a missing folder, a broken definition), code is
    /// plain yellow as before, with no error: colours are an extra, never a failure.
    @Test func missingOrBrokenDefinitionsLeaveCodePlain() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ps-highlight-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "python = python.lang\n".write(to: folder.appendingPathComponent("lang.map"), atomically: true, encoding: .utf8)
        try "keyword = \"def\n((( broken\n".write(to: folder.appendingPathComponent("python.lang"), atomically: true, encoding: .utf8)
        for dataDir in [folder.appendingPathComponent("missing").path, folder.path] {
            let result = try Run.command("ps-render", ["--width", "40"], stdin: Self.message,
                                         environment: ["CLICOLOR_FORCE": "1", "SOURCE_HIGHLIGHT_DATADIR": dataDir])
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty, "\(result.stderrText)")
            #expect(result.stdoutText.contains("\u{1B}[33mdef f():\u{1B}[0m\n"), "\(dataDir)")
        }
        // And the real folder, given by the same variable, colours it.
        let real = try Run.command("ps-render", ["--width", "40"], stdin: Self.message,
                                   environment: ["CLICOLOR_FORCE": "1", "SOURCE_HIGHLIGHT_DATADIR": "/usr/share/source-highlight"])
        #expect(real.stdoutText.contains("\u{1B}[35mdef\u{1B}[0m"))
    }
}
