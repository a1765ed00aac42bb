import Foundation
import Testing
import TestSupport

/// The manners of --help, the man pages and the completions: they fit a terminal, mdoc has
/// nothing to warn about, and single commands offer no `help` subcommand.
@Suite struct HelpAndManualTests {
    static let commands = [
        "ps-sse", "ps-parts", "ps-render", "ps-send", "ps-batch", "ps-history", "ps-message", "ps-models", "ps-local-server", "ps-auth", "ps-facts", "ps-summary", "ps-settings", "ps-agents", "ps-keys", "ps-search", "ps-archive", "ps-archive-postgres",
    ]
    /// Installed in lib/ps-tools, off PATH, but with the manners, page and completions of a command.
    static let helpers = ["ps-mcp"]
    static let documented = commands + helpers
    static let withSubcommands: Set<String> = ["ps-auth", "ps-message", "ps-facts", "ps-summary", "ps-agents", "ps-keys",
                                                "ps-archive-postgres"]
    static let singleCommands = documented.filter { !withSubcommands.contains($0) }
    static let root = Executables.packageRoot

    @Test(arguments: documented.map { [$0] } + subcommandWords)
    func helpFitsEightyColumns(_ words: [String]) throws {
        let result = try Run.command(words[0], Array(words.dropFirst()) + ["--help"], environment: ["COLUMNS": "80"], timeout: 30)
        #expect(result.status == 0)
        let lines = result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 5)
        for line in lines {
            #expect(line.count <= 80, "\(words.joined(separator: " ")): \(line.count) columns: \(line)")
        }
    }

    static let subcommandWords: [[String]] = ["login", "status", "token", "logout", "set-model"].map { ["ps-auth", $0] }
        + ["list", "extract", "off", "on", "search"].map { ["ps-facts", $0] } + ["generate", "list"].map { ["ps-summary", $0] }
        + ["list", "drives", "show", "set", "create", "ask"].map { ["ps-agents", $0] }
        + ["list", "revoke", "grants", "revoke-grant"].map { ["ps-keys", $0] }
        + ["edit", "delete", "undo"].map { ["ps-message", $0] }
        + ["archive", "search"].map { ["ps-archive-postgres", $0] }

    /// --help is a glance: the summary, then USAGE, the options, a few examples that never wrap
    /// at 80 columns, and the man page's name; at most 60 lines, for every command and subcommand.
    @Test(arguments: documented.map { [$0] } + subcommandWords)
    func helpIsAGlance(_ words: [String]) throws {
        let result = try Run.command(words[0], Array(words.dropFirst()) + ["--help"], environment: ["COLUMNS": "200"], timeout: 30)
        #expect(result.status == 0)
        let lines = result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let name = words.joined(separator: " ")
        #expect(lines.count <= 60, "\(name) --help: \(lines.count) lines")
        #expect(lines.count > 5)
        let usage = try #require(lines.firstIndex { $0.hasPrefix("USAGE: ") }, "\(name): no USAGE line")
        #expect(lines[usage...].prefix { !$0.isEmpty }.joined().contains(words.last!), "\(name): \(lines[usage])")
        #expect(lines[..<usage].filter { !$0.isEmpty }.count <= 3, "\(name): more than the summary before USAGE")
        #expect(lines.contains("OPTIONS:"))
        #expect(!lines.contains { $0.hasPrefix("EXIT STATUS") || $0.hasPrefix("ENVIRONMENT") }, "\(name): prose in the glance")
        #expect(lines.last == "The description, environment and exit status: man \(words[0])")
        let examples = lines.drop { $0 != "EXAMPLES:" }.dropFirst().prefix { !$0.isEmpty }
        for line in examples {
            #expect(line.count <= 80, "\(name): example over 80 columns: \(line)")
        }
        if words.count == 1 {
            let count = examples.filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.count
            #expect((3...6).contains(count), "\(name): \(count) examples")
        }
    }

    /// The man page keeps what the glance leaves out: the whole text of an option.
    @Test func theManualKeepsTheWholeTextOfAnOption() throws {
        let help = try Run.command("ps-send", ["--help"], timeout: 30).stdoutText
        #expect(help.contains("Attach this file (repeatable)."))
        #expect(!help.contains("goes into the message"))
        let page = try String(contentsOfFile: Self.root.appendingPathComponent("man/ps-send.1").path, encoding: .utf8)
        #expect(page.replacingOccurrences(of: "\n", with: " ").contains("a UTF-8 text file goes into the message"))
    }

    @Test func aMistypedAuthSubcommandIsNamed() throws {
        let result = try Run.command("ps-auth", ["loginn"], timeout: 30)
        #expect(result.status == 2)
        let lines = result.stderrText.split(separator: "\n")
        #expect(lines.first == "ps-auth: unknown subcommand 'loginn' (one of: login, status, token, logout, set-model)")
        #expect(!result.stderrText.contains("Usage: ps-auth status"))
    }

    @Test(arguments: documented)
    func manualHasNoWarningsAndOneExitStatus(_ command: String) throws {
        let page = Self.root.appendingPathComponent("man/\(command).1").path
        let checked = try Run.command("/bin/bash", ["-c", "command -v man >/dev/null || exit 99; MANWIDTH=80 man --warnings -l \"$1\" 2>&1 >/dev/null; man -l \"$1\" 2>&1 >/dev/null", "bash", page], timeout: 60)
        #expect(checked.status == 0, "man is needed for this check (scripts/setup --test installs it)")
        #expect(checked.stdoutText.isEmpty, "\(command).1: \(checked.stdoutText.prefix(400))")
        let source = try String(contentsOfFile: page, encoding: .utf8)
        #expect(source.components(separatedBy: "\n.Sh \"EXIT STATUS\"").count == 2)
        #expect(!source.contains(".Ex -std"))
    }

    /// Every page in man/, generated or hand-written, passes `mandoc -Tlint` with nothing to say
    /// (style included: a sentence a line, no text line over 80 bytes).
    @Test(arguments: documented.map { "\($0).1" } + ["ps-tools.7", "ps-ndjson.5"])
    func manualIsMandocLintClean(_ file: String) throws {
        let page = Self.root.appendingPathComponent("man/\(file)").path
        let checked = try Run.command("/bin/bash", ["-c", "command -v mandoc >/dev/null || exit 99; mandoc -Tlint \"$1\" 2>&1", "bash", page], timeout: 60)
        #expect(checked.status != 99, "mandoc is needed for this check (scripts/setup --test installs it)")
        #expect(checked.status == 0 && checked.stdoutText.isEmpty, "\(file): \(checked.stdoutText.prefix(600))")
    }

    @Test func everyPageInManIsChecked() throws {
        let pages = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("man").path)
        #expect(Set(pages) == Set(Self.documented.map { "\($0).1" } + ["ps-tools.7", "ps-ndjson.5"]))
    }

    @Test(arguments: singleCommands)
    func singleCommandsOfferNoHelpSubcommand(_ command: String) throws {
        let page = try String(contentsOfFile: Self.root.appendingPathComponent("man/\(command).1").path, encoding: .utf8)
        #expect(!page.contains(".It Em help"))
        #expect(!page.contains(".Ar subcommand"), "\(command).1: subcommand in the SYNOPSIS")
        for file in ["\(command).bash", "_\(command)", "\(command).fish"] {
            let script = try String(contentsOfFile: Self.root.appendingPathComponent("completions/\(file)").path, encoding: .utf8)
            #expect(!script.contains("Show subcommand help information"), "\(file)")
            #expect(!script.contains("compgen -W 'help'"), "\(file)")
        }
    }

    @Test func bashCompletionOfPsSendNeverOffersHelp() throws {
        let script = Self.root.appendingPathComponent("completions/ps-send.bash").path
        let result = try Run.command("/bin/bash", ["-c", """
            source "$1"
            COMP_WORDS=(ps-send he); COMP_CWORD=1; COMP_LINE="ps-send he"; COMP_POINT=${#COMP_LINE}
            _ps-send ps-send he ps-send 2>/dev/null
            printf '%s\\n' "${COMPREPLY[@]}"
            """, "bash", script], timeout: 30)
        #expect(!result.stdoutText.split(separator: "\n").contains("help"))
    }
}
