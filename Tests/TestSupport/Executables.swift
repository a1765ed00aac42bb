import Foundation

/// Where the built ps-* executables are: the folder of the running test binary.
public enum Executables {
    public static let directory: URL = {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }()

    public static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// The package's root folder (for examples/, man/, completions/).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url.deleteLastPathComponent()
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()
}

/// What a finished process left behind.
public struct ProcessResult: Sendable {
    public let status: Int32
    public let stdout: Data
    public let stderr: Data
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    public var stdoutLines: [String] { stdoutText.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
}

/// Runs real processes with real pipes.
public enum Run {
    /// The environment tests give commands: PATH starts with the build folder, no colour
    /// surprises, and config kept in a scratch folder unless the caller says otherwise.
    public static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = Executables.directory.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env.removeValue(forKey: "NO_COLOR")
        env.removeValue(forKey: "CLICOLOR_FORCE")
        env.removeValue(forKey: "PAGESPACE_TOKEN")
        env.removeValue(forKey: "PAGESPACE_API_URL")
        env.removeValue(forKey: "COLUMNS")
        // What tells ps-render whether the terminal shows OSC 8 hyperlinks (its --links auto).
        for key in ["TERM", "TERM_PROGRAM", "TMUX", "VTE_VERSION", "KITTY_WINDOW_ID", "WT_SESSION"] {
            env.removeValue(forKey: key)
        }
        for (key, value) in extra { env[key] = value }
        return env
    }

    /// Runs a ps-* executable (or any program on the test PATH) with `stdin` as its input.
    public static func command(
        _ name: String, _ arguments: [String] = [], stdin: Data? = nil, environment extra: [String: String] = [:],
        timeout: TimeInterval = 120
    ) throws -> ProcessResult {
        let executable = name.hasPrefix("/") ? URL(fileURLWithPath: name) : Executables.url(name)
        return try run(executable, arguments, stdin: stdin, environment: environment(extra), timeout: timeout)
    }

    /// Runs a shell pipeline with bash (`set -o pipefail` is up to the caller).
    public static func shell(
        _ script: String, stdin: Data? = nil, environment extra: [String: String] = [:], timeout: TimeInterval = 120
    ) throws -> ProcessResult {
        try run(URL(fileURLWithPath: "/bin/bash"), ["-c", script], stdin: stdin, environment: environment(extra),
                timeout: timeout)
    }

    public static func run(
        _ executable: URL, _ arguments: [String], stdin: Data?, environment: [String: String], timeout: TimeInterval
    ) throws -> ProcessResult {
        let child = try ChildProcess.spawn(
            executable.path, arguments, environment: environment, stdin: stdin == nil ? .null : .pipe)
        return child.collect(input: stdin, timeout: timeout)
    }
}
