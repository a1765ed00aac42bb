import Foundation

/// Where the built ps-* executables are: the folder of the running test binary.
public enum Executables {
    public static let directory: URL = {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }()

    public static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Puts beside a command copied into `folder` the shared object every command links and
    /// finds beside itself ($ORIGIN): libPSKit.so (kit/Package.swift), as a symbolic link.
    public static func linkSharedLibrary(into folder: URL) throws {
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("libPSKit.so"), withDestinationURL: url("libPSKit.so"))
    }

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
    /// The environment every process a test starts gets, and the only place it is built: an
    /// EMPTY environment plus PATH (the build folder first), the locale and TMPDIR taken from
    /// `inherited`, then HOME and every XDG base folder in a scratch folder of this test
    /// process (`Scratch`), then `extra`. Nothing else of the developer's environment (tokens,
    /// servers, colours, terminal, their own HOME and XDG folders) reaches a command. A caller
    /// that gives HOME (a sandbox) gets every XDG folder under that HOME unless it names them.
    public static func environment(
        _ extra: [String: String] = [:], inherited: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String: String] {
        var env: [String: String] = [:]
        env["PATH"] = Executables.directory.path + ":" + (inherited["PATH"] ?? "/usr/bin:/bin")
        for key in ["LANG", "LC_ALL", "LC_CTYPE", "TMPDIR"] { env[key] = inherited[key] }
        let home = extra["HOME"] ?? Scratch.home
        env["HOME"] = home
        for (key, folder) in Scratch.xdgFolders { env[key] = home + "/" + folder }
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

    /// Whether `url` answers within `timeout` seconds (with `successOnly`, with a 2xx status),
    /// asked with curl every 0.2 s: for a server a test starts itself (LiteLLM, an MCP server).
    public static func waitForHTTP(_ url: String, successOnly: Bool = false, timeout: TimeInterval = 60) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if try shell("curl -s\(successOnly ? "f" : "") -o /dev/null '\(url)'").status == 0 { return true }
            if Date() >= deadline { return false }
            usleep(200_000)
        }
    }

    public static func run(
        _ executable: URL, _ arguments: [String], stdin: Data?, environment: [String: String], timeout: TimeInterval
    ) throws -> ProcessResult {
        let child = try ChildProcess.spawn(
            executable.path, arguments, environment: environment, stdin: stdin == nil ? .null : .pipe)
        return child.collect(input: stdin, timeout: timeout)
    }
}

/// HOME and the XDG base folders of the processes this test process starts: made once, in
/// the temporary folder, unique to this process, never the user's own.
public enum Scratch {
    /// Each XDG base folder, relative to the HOME a process is given.
    public static let xdgFolders = [
        ("XDG_CONFIG_HOME", ".config"), ("XDG_DATA_HOME", ".local/share"), ("XDG_STATE_HOME", ".local/state"),
        ("XDG_CACHE_HOME", ".cache"), ("XDG_RUNTIME_DIR", "runtime"),
    ]

    public static let home: String = {
        let home = NSTemporaryDirectory() + "ps-tests-home-\(ProcessInfo.processInfo.processIdentifier)-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        return home
    }()
}
