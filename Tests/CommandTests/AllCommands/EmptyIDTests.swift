import Foundation
import Testing
import TestSupport

/// An empty id, as a `$(...)` that found nothing gives it, is a usage error naming the option
/// or argument (exit 2), before anything is sent: the server the commands are pointed at is a
/// port where nothing listens, so a request would be a network error (exit 9) instead.
@Suite struct EmptyIDTests {
    static let cases: [(command: String, arguments: [String], names: String)] = [
        ("ps-send", ["--page", "", "hi"], "--page <page-id>"),
        ("ps-send", ["--conversation", "", "hi"], "--conversation <id>"),
        ("ps-send", ["--agent", "", "hi"], "--agent <name>"),
        ("ps-send", ["--resume", ""], "--resume <message-id>"),
        ("ps-history", ["--conversation", ""], "--conversation <id>"),
        ("ps-history", ["--page", ""], "--page <page-id>"),
        ("ps-history", ["--delete", ""], "--delete <id>"),
        ("ps-history", ["--list", "--agent", ""], "--agent <page-id>"),
        ("ps-message", ["delete", ""], "<message-id>"),
        ("ps-message", ["edit", "--conversation", "", "m1", "new text"], "--conversation <id>"),
        ("ps-facts", ["off", ""], "<fact-id>"),
        ("ps-facts", ["extract", "--conversation", ""], "--conversation <id>"),
        ("ps-keys", ["revoke", ""], "<id>"),
        ("ps-keys", ["revoke-grant", ""], "<id>"),
        ("ps-agents", ["show", ""], "<agent>"),
        ("ps-agents", ["list", "--drive", ""], "--drive <drive>"),
        ("ps-summary", ["list", "--conversation", ""], "--conversation <id>"),
        ("ps-batch", ["--conversation", ""], "--conversation <id>"),
    ]

    @Test func anEmptyIDIsAUsageErrorBeforeAnyRequest() throws {
        let port = try FreePort.take()
        let sandbox = try NetworkSandbox(extra: ["PAGESPACE_TOKEN": LocalServer.sessionToken,
                                                 "PAGESPACE_API_URL": "http://127.0.0.1:\(port)"])
        for (command, arguments, names) in Self.cases {
            let run = try sandbox.run(command, arguments, stdin: "")
            let first = run.stderrText.split(separator: "\n").first.map(String.init) ?? ""
            #expect(run.status == 2, "\(command) \(arguments): \(run.status) \(run.stderrText)")
            #expect(first.hasPrefix("\(command): ") && first.contains("'\(names)'") && first.contains("empty id"),
                    "\(command) \(arguments): \(run.stderrText)")
        }
    }
}

extension EmptyIDTests {
    /// `--agent=` with nothing after it: ArgumentParser would take the next word as the value
    /// (the message as the agent); every command refuses it as a usage error before anything is
    /// sent. After `--` it is plain text.
    @Test func anEmptyAttachedValueIsAUsageError() throws {
        let port = try FreePort.take()
        let sandbox = try NetworkSandbox(extra: ["PAGESPACE_TOKEN": LocalServer.sessionToken,
                                                 "PAGESPACE_API_URL": "http://127.0.0.1:\(port)"])
        for (command, arguments) in [("ps-send", ["--agent=", "hi"]), ("ps-history", ["--conversation=", "--all"]),
                                     ("ps-render", ["--width=", "80"])] {
            let run = try sandbox.run(command, arguments, stdin: "")
            #expect(run.status == 2, "\(command) \(arguments): \(run.status) \(run.stderrText)")
            #expect(run.stderrText.hasPrefix("\(command): \(arguments[0]) has an empty value"), "\(command): \(run.stderrText)")
        }
        let text = try sandbox.run("ps-send", ["--", "--agent="], stdin: "")
        #expect(text.status == 9, "\(text.stderrText)")
    }
}
