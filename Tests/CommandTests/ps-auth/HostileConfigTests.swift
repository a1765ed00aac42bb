import Foundation
import Testing
import TestSupport

/// ps-auth against a hostile server, and the config and credentials files in shapes a login
/// did not write (issue 31, round 4): no control sequence reaches the terminal, nothing the
/// user kept is lost, and every refusal is one clear line with its exit status.
@Suite(.serialized) struct HostileConfigTests {
    /// Tests/CommandTests/Hostile/hostile_auth_server.py in one of its modes.
    final class HostileServer {
        let process: ChildProcess
        let baseURL: String

        init(mode: String) throws {
            let script = Executables.packageRoot.appendingPathComponent("Tests/CommandTests/Hostile/hostile_auth_server.py").path
            process = try ChildProcess.spawn("/usr/bin/python3", [script, mode], environment: Run.environment(), stdin: .null)
            let port = String(decoding: process.readStdoutLine(timeout: 20), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            try #require(Int(port) != nil, "the hostile server did not start")
            baseURL = "http://127.0.0.1:\(port)"
        }

        deinit {
            process.signalGroup(SIGTERM)
            _ = process.wait()
        }
    }

    /// ESC, BEL and the C1 controls (U+0080-U+009F as UTF-8) are what a terminal obeys.
    static func controlBytes(_ data: Data) -> Bool {
        let bytes = Array(data)
        return bytes.contains(0x1B) || bytes.contains(0x07)
            || zip(bytes, bytes.dropFirst()).contains { $0 == 0xC2 && (0x80...0x9F).contains($1) }
    }

    static func expectNoControls(_ run: ProcessResult, _ what: String) {
        #expect(!controlBytes(run.stdout), "\(what): stdout \(run.stdoutText.debugDescription)")
        #expect(!controlBytes(run.stderr), "\(what): stderr \(run.stderrText.debugDescription)")
    }

    @Test func theUserAServerNamesIsShownEscapedNowAndWhenReplayed() throws {
        let server = try HostileServer(mode: "user")
        let sandbox = try NetworkSandbox()
        let login = try sandbox.run(
            "ps-auth", ["login", "--with-token", "--api", "pagespace", "--server", server.baseURL], stdin: "ps_sess_hostile\n")
        #expect(login.status == 0, "\(login.stderrText)")
        Self.expectNoControls(login, "login")
        #expect(login.stderrText.contains("as ␛]52;c;ZWNobyBwd25lZA==␇Eve␛[2J␛[?1049h <eve<U+009B>31m@example.com␊works: forged>"),
                "\(login.stderrText)")

        for arguments in [["status"], ["status", "--offline"]] {
            let status = try sandbox.run("ps-auth", arguments)
            #expect(status.status == 0, "\(arguments): \(status.stderrText)")
            Self.expectNoControls(status, arguments.joined(separator: " "))
            #expect(status.stdoutText.contains("user: ␛]52;c;ZWNobyBwd25lZA==␇Eve␛[2J␛[?1049h <eve<U+009B>31m@example.com␊works: forged>\n"),
                    "\(status.stdoutText)")
            // The newline in the email forges no line of the report.
            #expect(!status.stdoutText.contains("\nworks: forged"))
        }
        let online = try sandbox.run("ps-auth", ["status"])
        #expect(online.stdoutText.contains("drives: ␛]0;title␇Drive (drive1)\n"), "\(online.stdoutText)")
    }

    @Test func aRedirectSaysWhereItPointsAndThatItIsNotFollowed() throws {
        let server = try HostileServer(mode: "redirect")
        let sandbox = try NetworkSandbox(extra: [
            "PAGESPACE_TOKEN": "ps_sess_x", "PAGESPACE_API_URL": server.baseURL, "PAGESPACE_API_KIND": "pagespace",
        ])
        let status = try sandbox.run("ps-auth", ["status"])
        #expect(status.status == 1, "\(status.stderrText)")
        Self.expectNoControls(status, "status")
        #expect(status.stderrText.contains(
            "ps-auth: the server answered with a redirect (status 301) to http://elsewhere.example/␛]52;c;AAAA␇login (GET /api/auth/me)"),
            "\(status.stderrText)")
        #expect(status.stderrText.contains("redirects are not followed"))
    }

    @Test func aMalformedDeviceLoginAnswerSaysWhatIsMissing() throws {
        let server = try HostileServer(mode: "device")
        let sandbox = try NetworkSandbox()
        let login = try sandbox.run("ps-auth", ["login", "--device", "--drive", "drive1", "--server", server.baseURL])
        #expect(login.status == 8, "\(login.stderrText)")
        #expect(login.stderrText ==
            "ps-auth: the server's answer to the device authorization is malformed: no device_code, verification_uri (a string is required)\n")
    }

    /// A granted token with control characters in it would be sent in a header and printed by
    /// `ps-auth token`: refused, and nothing stored.
    @Test func aDeviceLoginTokenWithControlCharactersIsNotStored() throws {
        let server = try HostileServer(mode: "token")
        let sandbox = try NetworkSandbox()
        let login = try sandbox.run("ps-auth", ["login", "--device", "--drive", "drive1", "--server", server.baseURL])
        #expect(login.status == 8, "\(login.stderrText)")
        #expect(login.stderrText.contains("ps-auth: the server's answer to the token request is malformed: its access_token is not a token"),
                "\(login.stderrText)")
        Self.expectNoControls(login, "login")
        #expect(!FileManager.default.fileExists(atPath: sandbox.credentialsPath))
    }

    @Test(arguments: ["http://127.0.0.1:port", "http://[::1", "http://127.0.0.1:99999", "http://exa<mple>.com", "https://:8080"])
    func aMalformedServerURLIsAUsageError(url: String) throws {
        let sandbox = try NetworkSandbox()
        let login = try sandbox.run("ps-auth", ["login", "--api", "openai", "--server", url])
        #expect(login.status == 2, "\(login.stderrText)")
        #expect(login.stderrText.hasPrefix("ps-auth: the server URL \(url) (from the --server option) "), "\(login.stderrText)")
        #expect(!login.stderrText.contains("cannot reach"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.configPath))
    }

    @Test func aPasswordInTheServerURLIsRefusedAndNotShown() throws {
        let server = try LocalServer.start(dialect: "openai")
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let url = server.baseURL.replacingOccurrences(of: "http://", with: "http://ada:s3cr3t-pw@")
        let login = try sandbox.run("ps-auth", ["login", "--api", "openai", "--server", url])
        #expect(login.status == 2, "\(login.stderrText)")
        #expect(login.stderrText.contains("holds a user name or password"), "\(login.stderrText)")
        #expect(!login.stderrText.contains("s3cr3t-pw"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.configPath))
        let fromEnvironment = try sandbox.run("ps-auth", ["status"], env: ["PAGESPACE_API_URL": url])
        #expect(fromEnvironment.status == 2 && !fromEnvironment.stderrText.contains("s3cr3t-pw"), "\(fromEnvironment.stderrText)")
    }

    @Test(arguments: ["abc", "0", "-5", "1.5"])
    func anInvalidRecordCapInTheEnvironmentIsAUsageError(value: String) throws {
        let run = try Run.command("ps-sse", [], stdin: Data("data: x\n\n".utf8),
                                  environment: ["PS_MAX_RECORD_MIB": value])
        #expect(run.status == 2, "\(run.stderrText)")
        #expect(run.stderrText == "ps-sse: PS_MAX_RECORD_MIB=\(value) is not a positive whole number of MiB (unset it for the default, 64)\n")
        #expect(run.stdout.isEmpty)
        let good = try Run.command("ps-sse", [], stdin: Data("data: x\n\n".utf8),
                                   environment: ["PS_MAX_RECORD_MIB": "2"])
        #expect(good.status == 0 && !good.stdout.isEmpty, "\(good.stderrText)")
    }

    /// A file of another shape is left as it is: the login refuses (exit 1, naming the file and
    /// what could not be read) instead of writing it again without the user's other profiles.
    @Test func aConfigOrCredentialsFileOfAnotherShapeIsNotOverwritten() throws {
        let server = try LocalServer.start(dialect: "openai")
        defer { server.stop() }
        let configs = [
            #"{"profiles":{"work":{"server":"https://a.example"},"odd":{"url":"https://b.example"}}}"#: "profile odd: it has no server",
            #"[{"server":"https://a.example"}]"#: "it is not a JSON object",
            #"{"profiles":[{"server":"https://a.example"}]}"#: "its profiles are not a JSON object",
        ]
        for (text, reason) in configs {
            let sandbox = try NetworkSandbox()
            try FileManager.default.createDirectory(atPath: sandbox.directory + "/config/ps-tools", withIntermediateDirectories: true)
            try text.write(toFile: sandbox.configPath, atomically: true, encoding: .utf8)
            let login = try sandbox.run("ps-auth", ["login", "--api", "openai", "--server", server.baseURL, "--profile", "new"])
            #expect(login.status == 1, "\(text): \(login.stderrText)")
            #expect(login.stderrText.hasPrefix("ps-auth: not writing \(sandbox.configPath): part of it could not be read (\(reason))"),
                    "\(login.stderrText)")
            #expect(try String(contentsOfFile: sandbox.configPath, encoding: .utf8) == text)
        }

        let sandbox = try NetworkSandbox()
        try FileManager.default.createDirectory(atPath: sandbox.directory + "/config/ps-tools", withIntermediateDirectories: true)
        let credentials = #"{"profiles":{"work":{"secret":"ps_sess_kept"}}}"#
        FileManager.default.createFile(atPath: sandbox.credentialsPath, contents: Data(credentials.utf8), attributes: [.posixPermissions: 0o600])
        let login = try sandbox.run("ps-auth", ["login", "--api", "openai", "--server", server.baseURL])
        #expect(login.status == 1, "\(login.stderrText)")
        #expect(login.stderrText.hasPrefix("ps-auth: not writing \(sandbox.credentialsPath): part of it could not be read (profile work: it has no token)"),
                "\(login.stderrText)")
        #expect(try String(contentsOfFile: sandbox.credentialsPath, encoding: .utf8) == credentials)
    }

    /// A config.json kept elsewhere (a dotfiles repository) through a link: the login writes
    /// the file the link points to, and the link stays.
    @Test func aSymlinkedConfigIsWrittenThrough() throws {
        let server = try LocalServer.start(dialect: "openai")
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let dotfiles = sandbox.directory + "/dotfiles"
        try FileManager.default.createDirectory(atPath: dotfiles, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: sandbox.directory + "/config/ps-tools", withIntermediateDirectories: true)
        try #"{"profiles":{"work":{"server":"https://a.example","api":"openai"}}}"#.write(
            toFile: dotfiles + "/config.json", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: sandbox.configPath, withDestinationPath: "../../dotfiles/config.json")

        let login = try sandbox.run("ps-auth", ["login", "--api", "openai", "--server", server.baseURL, "--profile", "local"])
        #expect(login.status == 0, "\(login.stderrText)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.configPath) == "../../dotfiles/config.json")
        let kept = try String(contentsOfFile: dotfiles + "/config.json", encoding: .utf8)
        #expect(kept.contains("https://a.example") && kept.contains(server.baseURL), "\(kept)")
        let status = try sandbox.run("ps-auth", ["status", "--offline", "--profile", "local"])
        #expect(status.stdoutText.contains("server: \(server.baseURL)"), "\(status.stdoutText)\(status.stderrText)")
    }

    /// ps-history's --state file shares the writer: kept behind a link, it stays a link.
    @Test func aSymlinkedStateFileIsWrittenThrough() throws {
        let server = try LocalServer.start(extraArguments: ["--history-messages", "20", "--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let conversation = LocalServer.globalConversationID
        try FileManager.default.createDirectory(atPath: sandbox.directory + "/kept", withIntermediateDirectories: true)
        let target = sandbox.directory + "/kept/state.json", link = sandbox.directory + "/state.json"
        #expect(try sandbox.run("ps-history", ["--conversation", conversation, "--state", target]).status == 0)
        let first = try String(contentsOfFile: target, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "kept/state.json")

        let send = try sandbox.run("ps-send", ["--conversation", conversation, "one more"])
        #expect(send.status == 0, "\(send.stderrText)")
        let again = try sandbox.run("ps-history", ["--conversation", conversation, "--state", link])
        #expect(again.status == 0, "\(again.stderrText)")
        #expect(again.stdoutText.contains("one more"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "kept/state.json")
        #expect(try String(contentsOfFile: target, encoding: .utf8) != first, "the state behind the link was not updated")
    }

    @Test func aCredentialsFileThatIsALinkOrAFolderIsNamedForWhatItIs() throws {
        let sandbox = try NetworkSandbox(extra: ["PAGESPACE_API_URL": "http://127.0.0.1:9", "PAGESPACE_API_KIND": "pagespace"])
        try FileManager.default.createDirectory(atPath: sandbox.credentialsPath, withIntermediateDirectories: true)
        let folder = try sandbox.run("ps-auth", ["status"])
        #expect(folder.status == 4, "\(folder.stderrText)")
        #expect(folder.stderrText == "ps-auth: refusing to use \(sandbox.credentialsPath): it is a directory; move it away\n")

        try FileManager.default.removeItem(atPath: sandbox.credentialsPath)
        let target = sandbox.directory + "/elsewhere.json"
        FileManager.default.createFile(atPath: target, contents: Data("{}".utf8), attributes: [.posixPermissions: 0o600])
        try FileManager.default.createSymbolicLink(atPath: sandbox.credentialsPath, withDestinationPath: target)
        let link = try sandbox.run("ps-auth", ["status"])
        #expect(link.status == 4, "\(link.stderrText)")
        #expect(link.stderrText.hasPrefix("ps-auth: refusing to use \(sandbox.credentialsPath): it is a symbolic link;"), "\(link.stderrText)")
        #expect(!link.stderrText.contains("chmod"))
    }
}
