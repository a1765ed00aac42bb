import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Through a real HTTP proxy (Debian's tinyproxy, with BasicAuth), reached as libcurl reaches
/// one: `http_proxy`, `HTTPS_PROXY`, `no_proxy` from the environment. A proxy that refuses or
/// is down is named (host:port, never its password), and its page is never shown.
@Suite(.serialized) struct ProxyTests {
    static let user = "alice", password = "pr0xy-s3cret"

    /// tinyproxy on 127.0.0.1 with a config written into `folder`; its port.
    final class TinyProxy {
        let process: ChildProcess
        let port: Int
        let log: String

        init(in folder: String) throws {
            let binary = "/usr/bin/tinyproxy"
            try #require(FileManager.default.isExecutableFile(atPath: binary), "tinyproxy is not installed (scripts/setup --test installs it)")
            port = try FreePort.take()
            log = folder + "/tinyproxy.log"
            let config = """
                Port \(port)
                Listen 127.0.0.1
                Timeout 30
                MaxClients 20
                BasicAuth \(ProxyTests.user) \(ProxyTests.password)
                LogFile "\(log)"
                LogLevel Info
                """
            try config.write(toFile: folder + "/tinyproxy.conf", atomically: true, encoding: .utf8)
            process = try ChildProcess.spawn(binary, ["-d", "-c", folder + "/tinyproxy.conf"], environment: Run.environment())
            try Self.waitForListener(port)
        }

        func stop() {
            process.signalGroup(SIGKILL)
            _ = process.wait()
        }


        static func waitForListener(_ port: Int) throws {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = in_port_t(UInt16(port).bigEndian)
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
                }
                close(fd)
                if connected { return }
                usleep(50_000)
            }
            throw LocalServerError("tinyproxy did not listen on port \(port)")
        }
    }

    func proxyURL(_ port: Int, password: String? = ProxyTests.password) -> String {
        password.map { "http://\(Self.user):\($0)@127.0.0.1:\(port)" } ?? "http://127.0.0.1:\(port)"
    }

    @Test func refusedAndMissingProxyCredentialsAreExit4NamingTheProxy() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let proxy = try TinyProxy(in: sandbox.directory)
        defer { proxy.stop() }

        // The right credentials: through the proxy, as its log shows.
        let through = try sandbox.run("ps-history", ["--list"], env: ["http_proxy": proxyURL(proxy.port)])
        #expect(through.status == 0, "\(through.stderrText)")
        let proxyLog = (try? String(contentsOfFile: proxy.log, encoding: .utf8)) ?? ""
        #expect(proxyLog.contains("GET \(server.baseURL)/api/"), "\(proxyLog)")

        // A wrong password: tinyproxy answers 401 with WWW-Authenticate: Basic and its page.
        let wrong = try sandbox.run("ps-history", ["--list"], env: ["http_proxy": proxyURL(proxy.port, password: "wrong-pw")])
        #expect(wrong.status == 4, "\(wrong.stderrText)")
        #expect(wrong.stderrText.contains(
            "ps-history: the proxy 127.0.0.1:\(proxy.port) (from http_proxy) refused the credentials"), "\(wrong.stderrText)")
        #expect(!wrong.stderrText.contains("wrong-pw"))
        #expect(!wrong.stderrText.lowercased().contains("html"), "\(wrong.stderrText)")
        #expect(wrong.stderrText.split(separator: "\n").count == 1, "\(wrong.stderrText)")

        // None at all: 407 Proxy Authentication Required.
        let none = try sandbox.run("ps-history", ["--list"], env: ["http_proxy": proxyURL(proxy.port, password: nil)])
        #expect(none.status == 4, "\(none.stderrText)")
        #expect(none.stderrText.contains("the proxy 127.0.0.1:\(proxy.port) (from http_proxy) asks for credentials (status 407)"),
                "\(none.stderrText)")
        #expect(!none.stderrText.lowercased().contains("html"))

        // An https:// server through the proxy's CONNECT, HTTPS_PROXY in upper case.
        let tunnel = try sandbox.run("ps-history", ["--list"], env: [
            "HTTPS_PROXY": proxyURL(proxy.port, password: "wrong-pw"), "PAGESPACE_API_URL": "https://127.0.0.1:9",
        ])
        #expect(tunnel.status == 4, "\(tunnel.stderrText)")
        #expect(tunnel.stderrText.contains("the proxy 127.0.0.1:\(proxy.port) (from HTTPS_PROXY) refused the credentials"),
                "\(tunnel.stderrText)")
        #expect(!tunnel.stderrText.contains("wrong-pw"))
        // The right credentials, but nothing at the far end: the proxy refuses the tunnel.
        let farEnd = try sandbox.run("ps-history", ["--list"], env: [
            "https_proxy": proxyURL(proxy.port), "PAGESPACE_API_URL": "https://127.0.0.1:9",
        ])
        #expect(farEnd.status == 9, "\(farEnd.stderrText)")
        #expect(farEnd.stderrText.contains("the proxy 127.0.0.1:\(proxy.port) (from https_proxy) refused to connect to 127.0.0.1:9"),
                "\(farEnd.stderrText)")
    }

    @Test func aProxyThatIsDownIsExit9NamingIt() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let deadPort = try FreePort.take()
        let down = try sandbox.run("ps-history", ["--list"], env: ["http_proxy": proxyURL(deadPort)])
        #expect(down.status == 9, "\(down.stderrText)")
        #expect(down.stderrText.hasPrefix("ps-history: cannot reach the proxy 127.0.0.1:\(deadPort) (from http_proxy)"), "\(down.stderrText)")
        #expect(!down.stderrText.contains(Self.password))
        #expect(!down.stderrText.contains("retrying"), "\(down.stderrText)")

        let unknown = try sandbox.run("ps-history", ["--list"], env: ["http_proxy": "http://\(Self.user):\(Self.password)@proxy.invalid:3128"])
        #expect(unknown.status == 9, "\(unknown.stderrText)")
        #expect(unknown.stderrText.contains("cannot reach the proxy proxy.invalid:3128 (from http_proxy)"), "\(unknown.stderrText)")
        #expect(!unknown.stderrText.contains(Self.password))

        // no_proxy sends the server's requests past the dead proxy.
        let bypassed = try sandbox.run("ps-history", ["--list"], env: ["http_proxy": proxyURL(deadPort), "no_proxy": "127.0.0.1"])
        #expect(bypassed.status == 0, "\(bypassed.stderrText)")
    }

    /// The proxy password is read from the environment by libcurl: never on a command line,
    /// never in what reaches the server or its request log, never on stderr.
    @Test func theProxyPasswordGoesNowhereElse() throws {
        let server = try LocalServer.start(extraArguments: ["--pace-ms", "30"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let proxy = try TinyProxy(in: sandbox.directory)
        defer { proxy.stop() }
        var env = sandbox.environment
        env["http_proxy"] = proxyURL(proxy.port)
        let send = try ChildProcess.spawn(Executables.url("ps-send").path, ["Tell me about the proxy"], environment: env)
        #expect(!send.readStdoutLine(timeout: 30).isEmpty)  // streaming through the proxy
        let commandLine = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(send.pid)/cmdline"))) ?? Data()
        #expect(!commandLine.isEmpty)
        #expect(!String(decoding: commandLine, as: UTF8.self).contains(Self.password))
        let ended = send.collect(input: nil, timeout: 60)
        #expect(ended.status == 0, "\(ended.stderrText)")
        #expect(!ended.stderrText.contains(Self.password))
        let encoded = Data("\(Self.user):\(Self.password)".utf8).base64EncodedString()
        let log = try server.request("GET", "/_test/requests").text
        #expect(log.contains("Tell me about the proxy"))  // the log holds the request...
        #expect(!log.contains(Self.password) && !log.contains(encoded))  // ...not the proxy's credentials
    }
}
