import Foundation
import TestSupport

/// A scratch config folder and the environment the network commands run with in a test:
/// nothing from the developer's own profiles, quick retries, short waits.
struct NetworkSandbox {
    let directory: String
    var environment: [String: String]

    init(extra: [String: String] = [:]) throws {
        directory = NSTemporaryDirectory() + "ps-net-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        environment = ["HOME": directory, "XDG_CONFIG_HOME": directory + "/config", "PS_RETRIES": "3",
                       "PS_MAX_RETRY_WAIT": "5", "PS_PROFILE": ""]
        for (key, value) in extra { environment[key] = value }
    }

    /// A sandbox whose commands reach `server` through the environment, with `token`.
    init(server: LocalServer, token: String = LocalServer.sessionToken) throws {
        try self.init(extra: ["PAGESPACE_TOKEN": token, "PAGESPACE_API_URL": server.baseURL])
    }

    var credentialsPath: String { directory + "/config/ps-tools/credentials.json" }
    var configPath: String { directory + "/config/ps-tools/config.json" }

    func run(_ command: String, _ arguments: [String], stdin: String? = nil, env: [String: String] = [:]) throws
        -> ProcessResult
    {
        var environment = self.environment
        for (key, value) in env { environment[key] = value }
        return try Run.command(command, arguments, stdin: stdin.map { Data($0.utf8) }, environment: environment)
    }

    func shell(_ script: String, env: [String: String] = [:]) throws -> ProcessResult {
        var environment = self.environment
        for (key, value) in env { environment[key] = value }
        return try Run.shell("set -o pipefail\n" + script, environment: environment)
    }

    /// Logs in on `server` the way its dialect wants: a session token, or email and password.
    func login(_ server: LocalServer) throws -> ProcessResult {
        if server.dialect == "pagespace" {
            return try run("ps-auth", ["login", "--with-token", "--server", server.baseURL],
                           stdin: LocalServer.sessionToken + "\n")
        }
        return try run("ps-auth", ["login", "--server", server.baseURL, "--email", LocalServer.email, "--password-stdin"],
                       stdin: LocalServer.password + "\n")
    }
}

/// Reading the commands' outputs.
enum Records {
    static func parse(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw LocalServerError("not an object: \(line)")
            }
            return object
        }
    }

    static func ids(_ records: [[String: Any]]) -> [String] { records.compactMap { $0["id"] as? String } }

    /// The text of a message record's text parts, joined.
    static func text(of message: [String: Any]) -> String {
        ((message["parts"] as? [[String: Any]]) ?? []).filter { $0["type"] as? String == "text" }
            .compactMap { $0["text"] as? String }.joined()
    }

    /// The `text-delta` deltas of a raw SSE body, joined.
    static func streamedText(_ sse: String) -> String {
        sse.components(separatedBy: "\n").compactMap { line -> String? in
            guard line.hasPrefix("data: "), let data = line.dropFirst(6).data(using: .utf8),
                  let chunk = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  chunk["type"] as? String == "text-delta" else { return nil }
            return (chunk["delta"] ?? chunk["textDelta"]) as? String
        }.joined()
    }

    /// Lines like `stream=ID` that --print-ids writes on stderr.
    static func value(_ key: String, in stderr: String) -> String? {
        stderr.split(separator: "\n").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }
}
