import Foundation
import Testing
import TestSupport

/// The completion scripts offer the user's own values, read from the local config and state:
/// profiles, remembered conversations, and every enum. bash is run for real (the script
/// sourced, COMP_WORDS and COMP_CWORD set, the function called, COMPREPLY read) against a
/// scratch config with two profiles; zsh and fish scripts are syntax-checked where installed.
@Suite struct ShellCompletionTests {
    static let root = Executables.packageRoot

    /// A HOME whose config has two profiles (one with only a stored credential is a third),
    /// whose state remembers one current conversation, and whose data keeps one conversation.
    static func scratchHome() throws -> String {
        let home = Scratch.home + "/completion-\(UUID().uuidString)"
        let files = [
            ".config/ps-tools/config.json":
                #"{"defaultProfile":"work","profiles":{"work":{"server":"https://pagespace.example"},"lucid":{"server":"https://lucid.example","api":"lucid"}}}"#,
            ".local/state/ps-tools/current-conversation/work": "conv_current1\n",
            ".local/share/ps-tools/conversations/lucid/conv_kept2.ndjson": "",
        ]
        for (path, text) in files {
            let url = URL(fileURLWithPath: home + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            chmod(url.path, 0o600)
        }
        return home
    }

    /// COMPREPLY of bash completing `words` (the last one is the word being completed).
    static func bashCompletes(_ words: [String], home: String) throws -> [String] {
        let command = words[0]
        let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
        let result = try Run.command("/bin/bash", ["-c", """
            shopt -s extglob
            source "$1"
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _\(command) \(command) "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """, "bash", root.appendingPathComponent("completions/\(command).bash").path],
            environment: ["HOME": home], timeout: 60)
        #expect(result.status == 0, "\(result.stderrText)")
        return result.stdoutLines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.sorted()
    }

    @Test(arguments: [["ps-send"], ["ps-history"], ["ps-models"], ["ps-agents", "list"], ["ps-auth", "status"]])
    func profilesComeFromTheConfig(_ command: [String]) throws {
        let home = try Self.scratchHome()
        #expect(try Self.bashCompletes(command + ["--profile", ""], home: home) == ["lucid", "work"])
        #expect(try Self.bashCompletes(command + ["--profile", "w"], home: home) == ["work"])
    }

    @Test func aProfileWithOnlyAStoredCredentialIsOffered() throws {
        let home = try Self.scratchHome()
        let credentials = home + "/.config/ps-tools/credentials.json"
        try #"{"profiles":{"ci":{"token":"ps_sess_x","server":"https://ci.example"}}}"#.write(
            toFile: credentials, atomically: true, encoding: .utf8)
        chmod(credentials, 0o600)
        #expect(try Self.bashCompletes(["ps-send", "--profile", ""], home: home).contains("ci"))
    }

    @Test(arguments: [["ps-send"], ["ps-history"], ["ps-summary", "list"], ["ps-agents", "ask"]])
    func conversationsComeFromTheStateAndTheKeptConversations(_ command: [String]) throws {
        let home = try Self.scratchHome()
        #expect(try Self.bashCompletes(command + ["--conversation", ""], home: home) == ["conv_current1", "conv_kept2"])
        #expect(try Self.bashCompletes(command + ["--conversation", "conv_k"], home: home) == ["conv_kept2"])
    }

    @Test func nothingRememberedOffersNothing() throws {
        let home = Scratch.home + "/completion-empty-\(UUID().uuidString)"
        #expect(try Self.bashCompletes(["ps-send", "--conversation", ""], home: home).isEmpty)
        #expect(try Self.bashCompletes(["ps-send", "--profile", ""], home: home).isEmpty)
    }

    @Test func enumsAreOffered() throws {
        let home = try Self.scratchHome()
        #expect(try Self.bashCompletes(["ps-history", "--direction", ""], home: home) == ["after", "before"])
        #expect(try Self.bashCompletes(["ps-send", "--api", ""], home: home)
            == ["gemini", "lucid", "openai", "pagespace", "pagespace-legacy"])
        #expect(try Self.bashCompletes(["ps-search", "--role", ""], home: home) == ["assistant", "system", "user"])
        #expect(try Self.bashCompletes(["ps-models", "--provider", ""], home: home) == ["lmstudio", "ollama"])
    }

    @Test(arguments: HelpAndManualTests.documented)
    func zshAndFishScriptsParse(_ command: String) throws {
        let zsh = Self.root.appendingPathComponent("completions/_\(command)").path
        let fish = Self.root.appendingPathComponent("completions/\(command).fish").path
        let result = try Run.command("/bin/bash", ["-c", """
            status=0
            if command -v zsh >/dev/null; then zsh -n "$1" || status=1; fi
            if command -v fish >/dev/null; then fish --no-execute "$2" || status=1; fi
            exit $status
            """, "bash", zsh, fish], timeout: 60)
        #expect(result.status == 0, "\(result.stderrText)")
    }
}
