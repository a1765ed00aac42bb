import Foundation
import Testing
import TestSupport

/// An id given on the command line and repeated in an error line is shown escaped when it
/// holds a newline or another control character: the error stays one line, and nothing in it
/// acts on a terminal.
@Suite struct QuotedIDTests {
    static let hostile = "fact\nps-facts: all is well\u{1B}[2J"
    static let escaped = #""fact\nps-facts: all is well\u001b[2J""#

    static func expectOneEscapedLine(_ run: ProcessResult, _ command: String, status: Int32) {
        #expect(run.status == status, "\(command): \(run.status) \(run.stderrText)")
        let lines = run.stderrText.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1, "\(command): \(run.stderrText)")
        #expect(lines.first?.hasPrefix("\(command): ") == true && lines.first?.contains(escaped) == true,
                "\(command): \(run.stderrText)")
        #expect(!run.stderrText.contains("\u{1B}"), "\(command): \(run.stderrText)")
    }

    @Test func factIDsAreEscapedInErrors() throws {
        let backend = try #require(EveryBackendTests.backends.first { $0.kind == "lucid" })
        let (server, sandbox) = try backend.startLoggedIn()
        defer { server.stop() }
        for subcommand in ["off", "on"] {
            let run = try sandbox.run("ps-facts", [subcommand, Self.hostile], env: ["PS_PROFILE": backend.kind])
            Self.expectOneEscapedLine(run, "ps-facts", status: 6)
        }
        let history = try sandbox.run("ps-history", ["--conversation", Self.hostile], env: ["PS_PROFILE": backend.kind])
        Self.expectOneEscapedLine(history, "ps-history", status: 6)
    }

    @Test func conversationAndAgentIDsAreEscapedInErrors() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        Self.expectOneEscapedLine(try sandbox.run("ps-history", ["--conversation", Self.hostile]), "ps-history", status: 6)
        Self.expectOneEscapedLine(try sandbox.run("ps-agents", ["show", Self.hostile]), "ps-agents", status: 6)
        Self.expectOneEscapedLine(try sandbox.run("ps-send", ["--agent", Self.hostile, "hi"]), "ps-send", status: 6)
    }
}
