import Foundation
import Testing
import TestSupport

/// Man pages and completion scripts are generated from the argument definitions
/// (scripts/generate-docs); these tests fail when a committed file no longer matches them.
@Suite struct DocumentationSyncTests {
    static let commands = [
        "ps-sse", "ps-parts", "ps-render", "ps-auth", "ps-send", "ps-batch", "ps-history", "ps-message", "ps-models", "ps-facts", "ps-summary", "ps-settings", "ps-agents", "ps-keys", "ps-search", "ps-archive", "ps-local-server", "ps-archive-postgres", "ps-mcp",
    ]

    @Test(arguments: commands)
    func completionScriptsMatchTheCommand(_ command: String) throws {
        let files = ["bash": "\(command).bash", "zsh": "_\(command)", "fish": "\(command).fish"]
        // Single commands' scripts go through scripts/completion-postprocess, as generate-docs does.
        let single = try Run.command(command, ["--help"]).stdoutText.contains("\nSUBCOMMANDS:") ? "" : " --single"
        for (shell, file) in files {
            let generated = try Run.command("/bin/bash", [
                "-c", "\"$0\" --generate-completion-script \(shell) | \"$1\"/scripts/completion-postprocess \(shell)\(single)",
                Executables.url(command).path, Executables.packageRoot.path,
            ])
            #expect(generated.status == 0)
            let committed = try String(
                contentsOf: Executables.packageRoot.appendingPathComponent("completions/\(file)"), encoding: .utf8)
            #expect(generated.stdoutText == committed, "completions/\(file) is stale: run scripts/generate-docs")
        }
    }

    @Test(arguments: commands)
    func manPageDocumentsEveryOption(_ command: String) throws {
        let page = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent("man/\(command).1"), encoding: .utf8)
        let dump = try Run.command(command, ["--experimental-dump-help"])
        let info = try #require(try JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])
        var names: [String] = []
        func collect(_ command: [String: Any]) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                if let names0 = argument["names"] as? [[String: Any]] {
                    names += names0.compactMap { $0["name"] as? String }
                }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { collect(sub) }
        }
        collect(try #require(info["command"] as? [String: Any]))
        for name in names {
            #expect(page.contains(name), "man/\(command).1 lacks --\(name): run scripts/generate-docs")
        }
    }
}
