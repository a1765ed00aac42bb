import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A running `ps-local-server` for end-to-end tests: started on a free port as a real
/// process, stopped (SIGTERM, then SIGKILL if it lingers) by `stop()` or when released.
///
///     let server = try LocalServer.start(dialect: "pagespace-legacy", extraArguments: ["--history-messages", "500"])
///     defer { server.stop() }
///     try server.armFault(#"{"status":429,"retryAfter":1}"#)
///     let reply = try server.request("GET", "/api/ai_conversations/global", headers: ["Authorization": "Bearer …"])
public final class LocalServer: @unchecked Sendable {
    public static let sessionToken = "ps_sess_demo-session-token"
    public static let mcpKey = "mcp_demo-mcp-key"
    public static let email = "demo@example.com"
    public static let password = "demo-password"
    public static let globalConversationID = "demoglobalconversation"
    /// The two API generations the server speaks, for tests that run in both.
    public static let dialects = ["pagespace", "pagespace-legacy"]

    /// The URL a profile needs (`--server`, `PAGESPACE_API_URL`), as the server printed it:
    /// `http://127.0.0.1:PORT`, ending in `/v1` on the openai dialect and `/api/v1` on the gemini one.
    public let baseURL: String
    /// `http://127.0.0.1:PORT`: where `request` and `url` send the test's own requests.
    public let origin: String
    public let dialect: String
    private let process: ChildProcess
    private let log: LockedBuffer
    private let stopped = NSLock()
    private var isStopped = false
    private var status: Int32 = 0

    private init(baseURL: String, dialect: String, process: ChildProcess, log: LockedBuffer) {
        self.baseURL = baseURL
        let authority = baseURL.dropFirst("http://".count)
        origin = "http://" + authority.prefix { $0 != "/" }
        self.dialect = dialect
        self.process = process
        self.log = log
    }

    deinit { stop() }

    /// Starts the built server with `--port 0 --pace-ms 0` (later arguments win, so
    /// `extraArguments` may set another pace) and waits for its URL line. The server's stdin is
    /// a pipe this process holds open and the server runs with `--watch-stdin`: when the test
    /// process ends, however it ends, the server sees end of file and stops.
    public static func start(
        dialect: String = "pagespace", extraArguments: [String] = [], timeout: TimeInterval = 60
    ) throws -> LocalServer {
        let process = try ChildProcess.spawn(
            Executables.url("ps-local-server").path,
            ["--port", "0", "--dialect", dialect, "--pace-ms", "0", "--watch-stdin"] + extraArguments,
            environment: Run.environment(), stdin: .pipe)

        // Keep draining stderr (the request log) so the server never blocks on a full pipe,
        // and read the URL line from stdout.
        let log = LockedBuffer(), firstLine = LockedBuffer()
        let ready = DispatchSemaphore(value: 0)
        let reader = Thread {
            var sawLine = false
            _ = process.drain([
                (process.stderrFD, { log.append($0) }),
                (process.stdoutFD, { data in
                    guard !sawLine else { return }
                    if let newline = data.firstIndex(of: 0x0A) {
                        firstLine.append(data[data.startIndex..<newline])
                        sawLine = true
                        ready.signal()
                    } else {
                        firstLine.append(data)
                    }
                }),
            ], timeout: .infinity)
            if !sawLine { ready.signal() }
        }
        reader.start()
        let url = ready.wait(timeout: .now() + timeout) == .success ? firstLine.text : ""
        guard url.hasPrefix("http://") else {
            process.signalGroup(SIGKILL)
            process.wait()
            throw LocalServerError("ps-local-server did not print its URL (stdout: \(url.debugDescription), stderr: \(log.text))")
        }
        return LocalServer(baseURL: url, dialect: dialect, process: process, log: log)
    }

    /// Stops the server: SIGTERM, and SIGKILL if it has not exited within 5 seconds.
    @discardableResult
    public func stop() -> Int32 {
        stopped.lock()
        defer { stopped.unlock() }
        if !isStopped {
            isStopped = true
            if process.isRunning {
                kill(process.pid, SIGTERM)
                let deadline = Date().addingTimeInterval(5)
                while process.isRunning && Date() < deadline { usleep(10_000) }
                if process.isRunning { process.signalGroup(SIGKILL) }
            }
            status = process.wait()
            process.closeStdin()
        }
        return status
    }

    public var isRunning: Bool { process.isRunning }

    /// What the server wrote on stderr so far (one line per request unless --quiet).
    public var stderrText: String { log.text }

    public func url(_ path: String) -> String { origin + path }

    /// One HTTP exchange through curl (a real client on a real socket). Never throws for an
    /// HTTP error status; `curlStatus` tells a broken connection (18, 52) from a clean one.
    public func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil,
        timeout: TimeInterval = 60
    ) throws -> HTTPReply {
        let arguments = curlArguments(method, path, headers: headers, hasBody: body != nil, timeout: timeout)
        let result = try Run.run(
            URL(fileURLWithPath: "/usr/bin/curl"), arguments, stdin: body.map { Data($0.utf8) },
            environment: Run.environment(), timeout: timeout + 10)
        return HTTPReply(curlOutput: result.stdout, curlStatus: result.status, curlError: result.stderrText)
    }

    /// Starts an exchange without waiting for it (a stream to watch while it arrives).
    public func startRequest(
        _ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil,
        timeout: TimeInterval = 120
    ) throws -> RunningRequest {
        let arguments = curlArguments(method, path, headers: headers, hasBody: body != nil, timeout: timeout)
        return try RunningRequest(arguments: arguments, body: body)
    }

    private func curlArguments(
        _ method: String, _ path: String, headers: [String: String], hasBody: Bool, timeout: TimeInterval
    ) -> [String] {
        var arguments = ["-s", "-S", "-N", "-X", method, "-D", "-", "-H", "Expect:", "--max-time", String(Int(timeout))]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(name): \(value)"] }
        if hasBody {
            if headers.keys.contains(where: { $0.lowercased() == "content-type" }) == false {
                arguments += ["-H", "Content-Type: application/json"]
            }
            arguments += ["--data-binary", "@-"]
        }
        arguments.append(url(path))
        return arguments
    }

    /// Arms a fault (`POST /_test/faults`), e.g. `{"drop":true,"afterEvents":3}`.
    public func armFault(_ json: String) throws {
        let reply = try request("POST", "/_test/faults", body: json)
        guard reply.status == 200 else { throw LocalServerError("arming \(json) failed: \(reply.status) \(reply.text)") }
    }

    public func clearFaults() throws {
        _ = try request("DELETE", "/_test/faults")
    }

    /// The requests the server received (method, path, query, headers, body), oldest first.
    public func requestLog() throws -> [[String: Any]] {
        let reply = try request("GET", "/_test/requests")
        return try JSONSerialization.jsonObject(with: reply.body) as? [[String: Any]] ?? []
    }

    public func clearRequestLog() throws {
        _ = try request("DELETE", "/_test/requests")
    }

    /// Logs in on a legacy server as a program can (the mobile login: the web one puts the JWT
    /// in a cookie): the JWT and its CSRF token.
    public func legacyLogin() throws -> (token: String, csrf: String) {
        let reply = try request(
            "POST", "/api/auth/mobile/login",
            body: #"{"email":"\#(Self.email)","password":"\#(Self.password)","deviceId":"test-device","platform":"desktop"}"#)
        let object = try reply.jsonObject()
        guard let token = object["token"] as? String, let csrf = object["csrfToken"] as? String else {
            throw LocalServerError("login failed: \(reply.status) \(reply.text)")
        }
        return (token, csrf)
    }
}

/// An exchange still under way: `received` grows as the response arrives.
public final class RunningRequest: @unchecked Sendable {
    private let process: ChildProcess
    private let output = LockedBuffer()
    private let errors = LockedBuffer()
    private let drained = DispatchGroup()

    init(arguments: [String], body: String?) throws {
        process = try ChildProcess.spawn(
            "/usr/bin/curl", arguments, environment: Run.environment(), stdin: body == nil ? .null : .pipe)
        if let body {
            process.write(Data(body.utf8))
        }
        process.closeStdin()
        drained.enter()
        let reader = Thread { [process, output, errors, drained] in
            _ = process.drain(
                [(process.stdoutFD, { output.append($0) }), (process.stderrFD, { errors.append($0) })],
                timeout: .infinity)
            drained.leave()
        }
        reader.start()
    }

    /// Everything received so far, headers included.
    public var received: String { output.text }

    /// Waits (bounded) until `received` contains `text`; false if it never did.
    public func waitFor(_ text: String, timeout: TimeInterval = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if received.contains(text) { return true }
            // Both pipes at end of file: nothing more will come.
            if drained.wait(timeout: .now()) == .success { return received.contains(text) }
            usleep(10_000)
        }
        return false
    }

    /// Waits for the exchange to end.
    public func finish() -> HTTPReply {
        let status = process.wait()
        drained.wait()
        return HTTPReply(curlOutput: output.data, curlStatus: status, curlError: errors.text)
    }
}

/// An HTTP response as curl saw it.
public struct HTTPReply: Sendable {
    public let status: Int
    /// Header names in lower case.
    public let headers: [String: String]
    public let body: Data
    /// curl's exit status: 0, or 18 (connection closed mid-body), 52 (closed without an answer)…
    public let curlStatus: Int32
    public let curlError: String

    public var text: String { String(decoding: body, as: UTF8.self) }

    public func json() throws -> Any { try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }

    public func jsonObject() throws -> [String: Any] {
        guard let object = try json() as? [String: Any] else { throw LocalServerError("not a JSON object: \(text)") }
        return object
    }

    /// The `data:` payloads of an SSE body, in order (`[DONE]` included as the string).
    public var eventData: [String] {
        text.components(separatedBy: "\n").compactMap { line in
            line.hasPrefix("data: ") ? String(line.dropFirst(6)) : nil
        }
    }

    /// The JSON chunks of an SSE body (`[DONE]` left out).
    public var chunks: [[String: Any]] {
        eventData.compactMap { data in
            guard data != "[DONE]" else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any]
        }
    }

    init(curlOutput: Data, curlStatus: Int32, curlError: String) {
        self.curlStatus = curlStatus
        self.curlError = curlError
        let separator = Data("\r\n\r\n".utf8)
        guard let end = curlOutput.range(of: separator) else {
            status = 0
            headers = [:]
            body = Data()
            return
        }
        let head = String(decoding: curlOutput[curlOutput.startIndex..<end.lowerBound], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            fields[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        headers = fields
        body = Data(curlOutput[end.upperBound...])
    }
}

public struct LocalServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Bytes appended from one thread and read from another.
final class LockedBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = Data()

    func append(_ more: Data) {
        lock.lock()
        storage.append(more)
        lock.unlock()
    }

    var data: Data {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }

    var text: String { String(decoding: data, as: UTF8.self) }
}
