import Foundation
import Testing
import TestSupport

/// The test kit never lets a command read or write the user's folders: with the test
/// process's own HOME and XDG folders set (here: folders this test makes, standing for the
/// user's), commands that write conversations, current-conversation state and config leave
/// them empty and write into the test's scratch HOME instead.
@Suite struct TestIsolationTests {
    static let xdgKeys = ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"]

    /// Every file under `folder`, as paths relative to it.
    static func files(under folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String]) ?? []
    }

    @Test func theEnvironmentStartsEmptyAndAlwaysHasScratchFolders() {
        let user = ["HOME": "/home/user", "XDG_DATA_HOME": "/home/user/data", "XDG_STATE_HOME": "/home/user/state",
                    "PAGESPACE_TOKEN": "mcp_user", "PAGESPACE_API_URL": "http://user", "NO_COLOR": "1", "TERM": "xterm",
                    "SOMETHING_ELSE": "x", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TMPDIR": "/tmp"]
        let env = Run.environment(inherited: user)
        #expect(Set(env.keys) == Set(["PATH", "LANG", "TMPDIR", "HOME"] + Self.xdgKeys))
        #expect(env["PATH"] == Executables.directory.path + ":/usr/bin:/bin")
        #expect(env["HOME"] == Scratch.home)
        for key in Self.xdgKeys { #expect(env[key]?.hasPrefix(Scratch.home + "/") == true, "\(key)") }
        // A caller that gives only HOME gets every XDG folder under it.
        let sandbox = Run.environment(["HOME": "/tmp/sandbox"], inherited: user)
        #expect(sandbox["XDG_DATA_HOME"] == "/tmp/sandbox/.local/share")
        #expect(sandbox["XDG_STATE_HOME"] == "/tmp/sandbox/.local/state")
        #expect(sandbox["XDG_CONFIG_HOME"] == "/tmp/sandbox/.config")
        // What Run built, given again (ChildProcess.spawn always does), stays as it was.
        #expect(Run.environment(sandbox, inherited: user) == sandbox)
    }

    @Test func commandsLeaveTheUsersFoldersEmpty() throws {
        let root = NSTemporaryDirectory() + "ps-isolation-" + UUID().uuidString
        let userRoot = root + "/user", sandboxHome = root + "/sandbox"
        var user = ProcessInfo.processInfo.environment
        user["HOME"] = userRoot + "/home"
        for key in Self.xdgKeys { user[key] = userRoot + "/" + key.lowercased() }
        for folder in [user["HOME"]!, sandboxHome] + Self.xdgKeys.map({ user[$0]! }) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(atPath: root) }

        func run(_ command: String, _ arguments: [String], stdin: String? = nil) throws -> ProcessResult {
            try Run.run(Executables.url(command), arguments, stdin: stdin.map { Data($0.utf8) },
                        environment: Run.environment(["HOME": sandboxHome, "PS_RETRIES": "3"], inherited: user), timeout: 120)
        }

        let openai = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { openai.stop() }
        let pagespace = try LocalServer.start()
        defer { pagespace.stop() }
        let steps: [(String, [String], String?)] = [
            ("ps-auth", ["login", "--api", "openai", "--server", openai.baseURL, "--model", "ps-demo"], nil),
            ("ps-send", ["First question"], nil),
            ("ps-send", ["Second question"], nil),
            ("ps-history", ["--list"], nil),
            ("ps-history", [], nil),
            ("ps-auth", ["login", "--with-token", "--server", pagespace.baseURL, "--profile", "ps"], LocalServer.sessionToken + "\n"),
            ("ps-history", ["--list", "--profile", "ps"], nil),
        ]
        for (command, arguments, stdin) in steps {
            let result = try run(command, arguments, stdin: stdin)
            #expect(result.status == 0, "\(command) \(arguments): \(result.stderrText)")
        }
        // The user's folders: untouched.
        for folder in [user["HOME"]!] + Self.xdgKeys.map({ user[$0]! }) {
            #expect(Self.files(under: folder) == [], "\(folder)")
        }
        // What the commands wrote went to the sandbox HOME's XDG folders.
        let written = Self.files(under: sandboxHome)
        for expected in [".config/ps-tools/config.json", ".config/ps-tools/credentials.json",
                         ".local/state/ps-tools/current-conversation/default"] {
            #expect(written.contains(expected), "\(written)")
        }
        #expect(written.contains { $0.hasPrefix(".local/share/ps-tools/conversations/default/") && $0.hasSuffix(".ndjson") },
                "\(written)")
    }
}
