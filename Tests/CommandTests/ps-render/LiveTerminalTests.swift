import Foundation
import Testing
import TestSupport

/// ps-render on a pseudo-terminal, read by a terminal emulator (pyte, through
/// Terminal/live_terminal.py): what a user sees while an answer streams, and after it.
@Suite struct LiveTerminalTests {
    /// Debian's Python, which has the python3-pyte package that scripts/setup --test installs.
    static let python = "/usr/bin/python3"

    static func scenario(_ name: String) throws -> [String: Any] {
        let script = Executables.packageRoot.appendingPathComponent("Tests/CommandTests/Terminal/live_terminal.py").path
        let result = try Run.command(python, [script, Executables.url("ps-render").path, name], timeout: 120)
        try #require(result.status == 0, "live_terminal.py \(name) failed: \(result.stderrText)")
        let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        return try #require(object, "no report from live_terminal.py: \(result.stdoutText)")
    }

    /// Each scenario says what it checks (see live_terminal.py); failures come back as text.
    @Test(arguments: ["words", "blocks", "tall", "resize", "interrupt", "cut", "error"])
    func liveDisplay(_ name: String) throws {
        let report = try Self.scenario(name)
        let failures = report["failures"] as? [String] ?? ["no failures list"]
        #expect(failures.isEmpty, "\(name): \(failures.joined(separator: "\n"))")
        #expect(report["ok"] as? Bool == true)
    }

    @Test func liveOnlyDrawsTheTerminalFormats() throws {
        let result = try Run.command("ps-render", ["--live", "--format", "markdown"], stdin: Data())
        #expect(result.status == 2)
        #expect(result.stderrText.contains("--live draws the ansi and plain formats"))
    }
}
