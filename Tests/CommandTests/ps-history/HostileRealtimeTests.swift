import Foundation
import Testing
import TestSupport

/// `ps-history --follow` against a realtime service that attacks it: a heartbeat that would
/// overflow, floods of events and packets of unknown types, a poll answer of 40 MB, a poll
/// answer that never ends. The follower must keep its memory bounded, say clearly what went
/// wrong, and still end cleanly on Ctrl-C. The history comes from the local server; only the
/// Socket.IO service (--realtime-url) is hostile.
@Suite struct HostileRealtimeTests {
    /// Engine.IO v4 polling as far as the follower needs it, then the attack named by `mode`.
    static let server = #"""
        import http.server, socketserver, sys, json
        mode = sys.argv[1]
        SEP = "\x1e"
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            connected = False
            def log_message(self, *args): pass
            def reply(self, body, chunked=False):
                self.send_response(200)
                self.send_header("Content-Type", "text/plain; charset=UTF-8")
                if chunked:
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    chunk = b"a" * 65536
                    try:
                        while True:
                            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    except Exception:
                        return
                data = body.encode() if isinstance(body, str) else body
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length).decode()
                if body.startswith("40"): Handler.connected = "pending"
                self.reply("ok")
            def do_GET(self):
                if "sid=" not in self.path:
                    interval = 1e300 if mode == "heartbeat" else 25000
                    return self.reply("0" + json.dumps({"sid": "s1", "upgrades": [], "pingInterval": interval,
                                                         "pingTimeout": 20000, "maxPayload": 1000000}))
                if Handler.connected == "pending":
                    Handler.connected = True
                    return self.reply('40{"sid":"socket1"}')
                if mode == "flood":
                    other = '42["conversation:message_created",{"conversationId":"elsewhere","rev":1}]'
                    odd = ["9zz", "4" + "7junk", '42[1,2', "4" + "2" + "[" * 3000, "45-", "6", "2"]
                    return self.reply(SEP.join([other] * 5000 + odd))
                if mode == "huge":
                    return self.reply(b"4" + b"a" * (40 * 1024 * 1024))
                if mode == "endless":
                    return self.reply(None, chunked=True)
                self.reply("6")
        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
        s = Server(("127.0.0.1", 0), Handler)
        print(s.server_address[1], flush=True)
        s.serve_forever()
        """#

    /// Starts the hostile service; its URL.
    static func start(_ mode: String, in folder: String) throws -> (ChildProcess, String) {
        let script = folder + "/hostile_realtime.py"
        try server.write(toFile: script, atomically: true, encoding: .utf8)
        let child = try ChildProcess.spawn("/usr/bin/python3", [script, mode], environment: Run.environment())
        let port = String(decoding: child.readStdoutLine(timeout: 20), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard Int(port) != nil else { throw LocalServerError("the hostile realtime service did not start") }
        return (child, "http://127.0.0.1:\(port)/socket.io/")
    }

    /// The largest resident size the process has had, in MiB.
    static func peakMiB(_ pid: pid_t) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
    }

    @Test(arguments: ["heartbeat", "flood", "huge", "endless"])
    func theFollowerHoldsUp(mode: String) throws {
        let local = try LocalServer.start(extraArguments: ["--quiet"])
        defer { local.stop() }
        let sandbox = try NetworkSandbox(server: local)
        let (hostile, url) = try Self.start(mode, in: sandbox.directory)
        defer { hostile.signalGroup(SIGKILL) }
        let follower = try ChildProcess.spawn(
            Executables.url("ps-history").path, ["--follow", "--realtime-url", url],
            environment: Run.environment(sandbox.environment))
        // The export first (six messages), then some seconds of the attack.
        var exported = 0
        while exported < 6, !follower.readStdoutLine(timeout: 30).isEmpty { exported += 1 }
        #expect(exported == 6)
        usleep(4_000_000)
        #expect(follower.isRunning, "the follower died under the attack")
        let peak = Self.peakMiB(follower.pid)
        follower.signalGroup(SIGINT)
        let end = follower.collect(input: nil, timeout: 30)
        #expect(end.status == 130, "\(mode): \(end.status) \(end.stderrText.prefix(500))")
        #expect(peak > 0 && peak < 200, "\(mode): peak RSS \(peak) MiB")
        #expect(end.stdout.isEmpty, "\(mode): wrote \(end.stdoutText.prefix(300))")
        if mode == "huge" || mode == "endless" {
            #expect(end.stderrText.contains("reconnecting"), "\(mode): \(end.stderrText.prefix(500))")
            #expect(end.stderrText.contains("larger than") || end.stderrText.contains("bytes"), "\(mode): \(end.stderrText.prefix(500))")
        }
        #expect(!end.stderrText.contains("Fatal error"), "\(end.stderrText.prefix(500))")
    }
}
