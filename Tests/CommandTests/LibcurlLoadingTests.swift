import Foundation
import Testing
import TestSupport

/// The network commands open libcurl (and the thirty libraries it needs) only for a request:
/// --help, --version and a usage error start without it, a request loads it. Read from the
/// dynamic loader's own account of the files it opens (LD_DEBUG=files, on stderr).
@Suite struct LibcurlLoadingTests {
    static let networkCommands = [
        "ps-auth", "ps-send", "ps-batch", "ps-history", "ps-message", "ps-facts", "ps-summary", "ps-settings", "ps-agents",
        "ps-keys", "ps-models", "ps-search",
    ]

    /// The files the dynamic loader opened for the run, by name (`file=libX.so.N [0];  ...`).
    static func loadedFiles(_ result: ProcessResult) -> [String] {
        result.stderrText.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: "file=") else { return nil }
            return line[start.upperBound...].split(separator: " ").first.map(String.init)
        }
    }

    @Test(arguments: networkCommands)
    func helpVersionAndUsageErrorsNeverLoadLibcurl(_ command: String) throws {
        for arguments in [["--help"], ["--version"], ["--no-such-option-anywhere"]] {
            let result = try Run.command(command, arguments, environment: ["LD_DEBUG": "files"], timeout: 30)
            let files = Self.loadedFiles(result)
            #expect(files.contains("libjansson.so.4"), "\(command) \(arguments): the loader's account is missing")
            #expect(!files.contains { $0.hasPrefix("libcurl") }, "\(command) \(arguments) loaded libcurl")
        }
    }

    /// Verbs that read only what is stored here send nothing, and do not load libcurl either.
    @Test func localVerbsNeverLoadLibcurl() throws {
        let sandbox = try NetworkSandbox(extra: ["PAGESPACE_TOKEN": "ps_sess_local", "PAGESPACE_API_URL": "http://127.0.0.1:9"])
        for arguments in [["status", "--offline"], ["token"]] {
            let result = try sandbox.run("ps-auth", arguments, env: ["LD_DEBUG": "files"])
            #expect(result.status == 0, "ps-auth \(arguments): \(result.stderrText.suffix(300))")
            #expect(Self.loadedFiles(result).contains("libjansson.so.4"))
            #expect(!Self.loadedFiles(result).contains { $0.hasPrefix("libcurl") }, "ps-auth \(arguments) loaded libcurl")
        }
    }

    @Test func aRequestLoadsLibcurlAndWorks() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let listed = try sandbox.run("ps-models", [], env: ["LD_DEBUG": "files"])
        #expect(listed.status == 0, "\(listed.stderrText)")
        #expect(!listed.stdoutLines.isEmpty)
        #expect(Self.loadedFiles(listed).contains("libcurl.so.4"))
    }
}
