import Foundation
import MCP
import PSCore

/// One MCP server behind ps-mcp's NDJSON (the protocol is in PsMcp's help): started over stdio
/// (Foundation's Process, the SDK's StdioTransport) or reached over streamable HTTP, its tools
/// listed, calls run side by side, each bounded in time and size, and a server that dies
/// during a call said so rather than waited for.
final class McpBridge: @unchecked Sendable {
    private let lock = NSLock()
    private var process: Process?
    private var errorTail = Data()
    private var client: Client?
    private var pipe: PipeTransport?
    private let calls = DispatchGroup()

    /// Reads the requests on stdin to their end.
    func serve() {
        guard let first = readLine(), let connect = Self.object(first)?["connect"] as? [String: Any] else {
            return fatal("the first request must be {\"connect\":{...}}")
        }
        let connectTimeout = (Self.object(first)?["timeout"] as? Double) ?? 60
        switch blocking({ try await self.connect(connect, timeout: connectTimeout) }) {
        case .success(let tools): write(["tools": tools])
        case .failure(let error): return fatal(describe(error))
        }
        while let line = readLine() {
            guard let request = Self.object(line), let call = request["call"] as? [String: Any],
                  let id = call["id"] as? String, let name = call["name"] as? String else {
                write(["error": "not a request: \(line.prefix(200))"])
                continue
            }
            let arguments = call["arguments"] as? [String: Any] ?? [:]
            let timeout = request["timeout"] as? Double ?? 60
            let maxOutput = request["maxOutput"] as? Int ?? 1 << 20
            calls.enter()
            Task {
                self.write(await self.call(id: id, name: name, arguments: arguments, timeout: timeout, maxOutput: maxOutput))
                self.calls.leave()
            }
        }
        calls.wait()
        stopServer()
    }

    // MARK: Connecting

    private func connect(_ spec: [String: Any], timeout: Double) async throws -> [[String: Any]] {
        let transport: any Transport
        if let url = spec["url"] as? String {
            guard let endpoint = URL(string: url), ["http", "https"].contains(endpoint.scheme ?? "") else {
                throw BridgeError("not an http(s) URL: \(url)")
            }
            transport = HTTPClientTransport(endpoint: endpoint, streaming: false)
        } else if let command = spec["command"] as? String {
            transport = try startServer(command, arguments: spec["args"] as? [String] ?? [], env: spec["env"] as? [String: String] ?? [:])
        } else {
            throw BridgeError("connect needs a command or a url")
        }
        let client = Client(name: "ps-send", version: ToolVersion.number)
        lock.withLock { self.client = client }
        return try await bounded(timeout: timeout, doing: "did not answer its initialization") {
            try await client.connect(transport: transport)
            var tools: [[String: Any]] = []
            var cursor: String?
            repeat {
                let page = try await client.listTools(cursor: cursor)
                for tool in page.tools {
                    let schema = try JSONSerialization.jsonObject(with: JSONEncoder().encode(tool.inputSchema))
                    tools.append(["name": tool.name, "description": tool.description ?? "", "parameters": schema])
                }
                cursor = page.nextCursor
            } while cursor != nil
            return tools
        }
    }

    private func startServer(_ command: String, arguments: [String], env: [String: String]) throws -> any Transport {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--", command] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock {
                self.errorTail.append(data)
                if self.errorTail.count > 4096 { self.errorTail.removeFirst(self.errorTail.count - 4096) }
            }
        }
        try process.run()
        lock.withLock { self.process = process }
        let transport = PipeTransport(
            input: output.fileHandleForReading.fileDescriptor, output: input.fileHandleForWriting.fileDescriptor)
        lock.withLock { self.pipe = transport }
        return transport
    }

    /// SIGTERM, and SIGKILL when it is still there a second later.
    private func stopServer() {
        guard let process = lock.withLock({ self.process }), process.isRunning else { return }
        process.terminate()
        for _ in 0..<10 where process.isRunning { usleep(100_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    // MARK: Calls

    private func call(id: String, name: String, arguments: [String: Any], timeout: Double, maxOutput: Int) async -> [String: Any] {
        do {
            guard let client = lock.withLock({ self.client }) else { throw BridgeError("not connected") }
            let values = try JSONDecoder().decode([String: Value].self, from: JSONSerialization.data(withJSONObject: arguments))
            let (content, isError) = try await bounded(timeout: timeout, doing: "took longer than \(Int(timeout)) s") {
                try await client.callTool(name: name, arguments: values)
            }
            let text = content.map(Self.text).joined(separator: "\n")
            if text.utf8.count > maxOutput {
                return ["id": id, "error": "the result has more than \(maxOutput) bytes", "limit": true]
            }
            return isError == true ? ["id": id, "error": text] : ["id": id, "output": text]
        } catch let error as BridgeError {
            return ["id": id, "error": error.message, "limit": error.limit]
        } catch {
            return ["id": id, "error": describe(error)]
        }
    }

    private static func text(_ content: Tool.Content) -> String {
        switch content {
        case .text(let text, _, _): return text
        case .image(_, let mimeType, _, _): return "[image \(mimeType)]"
        case .audio(_, let mimeType, _, _): return "[audio \(mimeType)]"
        case .resource(let resource, _, _): return resource.text ?? "[resource \(resource.uri)]"
        case .resourceLink(let uri, let name, _, _, _, _): return "[resource link \(name): \(uri)]"
        }
    }

    /// `work`, unless the timeout passes first or the server dies: neither waits for `work`,
    /// which the SDK may never end.
    private func bounded<T: Sendable>(timeout: Double, doing what: String, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let once = Once<T>()
        return try await withCheckedThrowingContinuation { continuation in
            once.continuation = continuation
            Task {
                do { once.resume(.success(try await work())) } catch { once.resume(.failure(error)) }
            }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(timeout * 1e9))
                once.resume(.failure(BridgeError(what, limit: true)))
            }
            Task {
                while let process = self.lock.withLock({ self.process }), process.isRunning {
                    if self.lock.withLock({ self.pipe })?.overflowed == true {
                        process.terminate()
                        once.resume(.failure(BridgeError(
                            "the MCP server sent a message of more than \(PipeTransport.maxLine) bytes, and was stopped", limit: true)))
                        return
                    }
                    try? await Task.sleep(nanoseconds: 100_000_000)
                }
                guard let process = self.lock.withLock({ self.process }) else { return }
                try? await Task.sleep(nanoseconds: 200_000_000)  // what it said before it died arrives first
                once.resume(.failure(BridgeError("the MCP server exited (status \(process.terminationStatus))" + self.lastWords(), limit: true)))
            }
        }
    }

    private func lastWords() -> String {
        let tail = lock.withLock { String(decoding: errorTail, as: UTF8.self) }
        let lines = tail.split(whereSeparator: \.isNewline).suffix(3).joined(separator: " | ")
        return lines.isEmpty ? "" : ": " + lines
    }

    private func describe(_ error: Error) -> String {
        if let error = error as? BridgeError { return error.message }
        if let error = error as? MCPError { return error.errorDescription ?? "\(error)" }
        return "\(error)"
    }

    // MARK: Lines

    private func write(_ object: [String: Any]) {
        guard var data = try? JSONSerialization.data(withJSONObject: object) else { return }
        data.append(0x0A)
        lock.withLock { FileHandle.standardOutput.write(data) }
    }

    private func fatal(_ message: String) {
        write(["fatal": message + lastWords()])
        stopServer()
        exit(ExitStatus.failure.rawValue)
    }

    private static func object(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// Runs `work` to its end from this (non-async) thread.
    private func blocking<T>(_ work: @escaping @Sendable () async throws -> T) -> Result<T, Error> {
        let done = DispatchSemaphore(value: 0)
        let box = Box<Result<T, Error>>()
        Task {
            do { box.value = .success(try await work()) } catch { box.value = .failure(error) }
            done.signal()
        }
        done.wait()
        return box.value!
    }
}

struct BridgeError: Error {
    let message: String
    /// Past a limit (time, size), or the server is gone: ps-send says so on stderr too.
    let limit: Bool
    init(_ message: String, limit: Bool = false) {
        self.message = message
        self.limit = limit
    }
}

private final class Box<T>: @unchecked Sendable {
    var value: T?
}

/// A continuation resumed by whichever finishes first.
private final class Once<T>: @unchecked Sendable {
    private let lock = NSLock()
    var continuation: CheckedContinuation<T, Error>?

    func resume(_ result: Result<T, Error>) {
        let waiting = lock.withLock { () -> CheckedContinuation<T, Error>? in
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(with: result)
    }
}
