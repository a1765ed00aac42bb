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

/// Writing input to a command that stopped reading must fail with EPIPE, not kill the tests.
private let ignoreBrokenPipeInTests: Void = { signal(SIGPIPE, SIG_IGN) }()

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
        ignoreBrokenPipeInTests
        let process = Process()
        // Through env, so the child starts with SIGPIPE at its default action as under a shell,
        // whatever this test process does with it.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--default-signal=PIPE", executable.path] + arguments
        process.environment = environment
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        let inPipe = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : inPipe
        try process.run()
        if let stdin {
            DispatchQueue.global().async {
                try? inPipe.fileHandleForWriting.write(contentsOf: stdin)
                try? inPipe.fileHandleForWriting.close()
            }
        }
        // Read both pipes concurrently so neither fills up and blocks the child.
        var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = errPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let deadline = DispatchTime.now() + timeout
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: deadline, execute: killer)
        let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        killer.cancel()
        return ProcessResult(status: process.terminationStatus, stdout: outData, stderr: errData)
    }
}
