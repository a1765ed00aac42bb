import Foundation
import Testing
import TestSupport

/// A hostile OpenAI-compatible server whose reply carries terminal attacks: an SSE comment that
/// writes the clipboard (OSC 52) and clears the screen, and a text delta with a C1 CSI (U+009B),
/// a bidi override (U+202E) and an SGR sequence. On a terminal (a pseudo-terminal read by pyte,
/// through Terminal/reply_terminal.py) none of it is obeyed, with `--raw` or rendered; in a pipe
/// `--raw` keeps the byte contract: the server's bytes unchanged.
@Suite(.serialized) struct RawTerminalGuardTests {
    /// The attack as the server sends it (the ESC of the delta is JSON-escaped, as JSON wants).
    static let body =
        ": \u{1B}]52;c;aGk=\u{07} \u{1B}[2J\n\n"
        + #"data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"red \u001b[31m here \#u{9B}2J and \#u{202E}desrever"}}]}"#
        + "\n\n"
        + #"data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"# + "\n\n"
        + "data: [DONE]\n\n"

    /// Answers `GET /models` with one model and every POST with `body`; prints its port.
    static let server = #"""
        import http.server, sys
        BODY = open(sys.argv[1], "rb").read()
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass
            def answer(self, status, kind, data):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            def do_GET(self):
                if self.path.endswith("/models"):
                    return self.answer(200, "application/json", b'{"object":"list","data":[{"id":"m","object":"model"}]}')
                self.answer(404, "application/json", b'{"error":"not here"}')
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self.answer(200, "text/event-stream", BODY)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    /// The hostile server, and a sandbox whose ps-send reaches it with a token of its own.
    static func start() throws -> (ChildProcess, NetworkSandbox, String) {
        let sandbox = try NetworkSandbox(extra: ["PAGESPACE_TOKEN": "t", "PS_RETRIES": "0"])
        try server.write(toFile: sandbox.directory + "/hostile_openai.py", atomically: true, encoding: .utf8)
        try Data(body.utf8).write(to: URL(fileURLWithPath: sandbox.directory + "/body.sse"))
        let child = try ChildProcess.spawn(
            "/usr/bin/python3", [sandbox.directory + "/hostile_openai.py", sandbox.directory + "/body.sse"],
            environment: Run.environment(), stdin: .null)
        let port = String(decoding: child.readStdoutLine(timeout: 20), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard Int(port) != nil else {
            child.signalGroup(SIGKILL)
            throw LocalServerError("the hostile server did not start")
        }
        return (child, sandbox, "http://127.0.0.1:\(port)")
    }

    static func contains(_ bytes: Data, _ needle: [UInt8]) -> Bool {
        bytes.count >= needle.count && bytes.indices.dropLast(needle.count - 1).contains { start in
            bytes[start..<start + needle.count].elementsEqual(needle)
        }
    }

    static let osc52: [UInt8] = [0x1B, 0x5D, 0x35, 0x32]  // ESC ] 5 2
    static let clearScreen: [UInt8] = [0x1B, 0x5B, 0x32, 0x4A]  // ESC [ 2 J
    static let c1CSI: [UInt8] = [0xC2, 0x9B]  // U+009B
    static let rightToLeftOverride: [UInt8] = [0xE2, 0x80, 0xAE]  // U+202E

    @Test func rawOnATerminalShowsTheAttackAndObeysNoneOfIt() throws {
        let (server, sandbox, url) = try Self.start()
        defer { server.signalGroup(SIGKILL) }
        let screen = try RenderedReplyTests.onTerminal("ps-send --raw --api openai --server \(url) hello", sandbox)
        #expect(screen.status == 0, "\(screen.lines)")
        #expect(!screen.bytes.isEmpty)
        #expect(!screen.bytes.contains(0x1B), "ESC reached the terminal: \(screen.lines)")
        #expect(!screen.bytes.contains(0x07), "BEL reached the terminal")
        #expect(!Self.contains(screen.bytes, Self.c1CSI), "U+009B reached the terminal")
        #expect(!Self.contains(screen.bytes, Self.rightToLeftOverride), "U+202E reached the terminal")
        // Shown instead, as control pictures and code points.
        let text = screen.lines.joined(separator: "\n")
        #expect(text.contains(": ␛]52;c;aGk=␇ ␛[2J"), "\(screen.lines)")
        #expect(text.contains("<U+009B>2J and <U+202E>desrever"), "\(screen.lines)")
        #expect(text.contains("data: [DONE]"), "\(screen.lines)")
    }

    @Test func rawInAPipeIsTheServersBytesUnchanged() throws {
        let (server, sandbox, url) = try Self.start()
        defer { server.signalGroup(SIGKILL) }
        let piped = try sandbox.run("ps-send", ["--raw", "--api", "openai", "--server", url, "hello"])
        #expect(piped.status == 0, "\(piped.stderrText)")
        #expect(piped.stdout == Data(Self.body.utf8), "\(piped.stdoutText)")
        #expect(piped.stdout.contains(0x1B))
    }

    @Test func renderedOnATerminalObeysNoneOfIt() throws {
        let (server, sandbox, url) = try Self.start()
        defer { server.signalGroup(SIGKILL) }
        let screen = try RenderedReplyTests.onTerminal("ps-send --api openai --server \(url) hello", sandbox)
        #expect(screen.status == 0, "\(screen.lines)")
        // The renderer writes SGR of its own; none of the server's sequences.
        #expect(!Self.contains(screen.bytes, Self.osc52), "OSC 52 reached the terminal")
        #expect(!Self.contains(screen.bytes, Self.clearScreen), "a clear screen reached the terminal")
        #expect(!Self.contains(screen.bytes, Self.c1CSI), "U+009B reached the terminal")
        #expect(!Self.contains(screen.bytes, Self.rightToLeftOverride), "U+202E reached the terminal")
        let text = screen.lines.joined(separator: "\n")
        #expect(text.contains("red ␛[31m here <U+009B>2J and <U+202E>desrever"), "\(screen.lines)")
        #expect(!text.contains("data:"), "\(screen.lines)")
    }
}
