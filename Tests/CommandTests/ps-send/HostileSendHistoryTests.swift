import Foundation
import Testing
import TestSupport

/// Issue 31's cases for ps-send and ps-history: what a batch runner, a hostile server, a full
/// disk or a wrong state file does to them, run as a user would run the built commands.
@Suite struct HostileSendHistoryTests {
    /// A batch runner sends several messages to one conversation the client keeps, at once:
    /// every exchange is kept, each question next to its reply.
    @Test func concurrentSendsToAClientKeptConversationKeepEveryExchange() throws {
        // Paced, so that the replies overlap.
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet", "--pace-ms", "15"])
        defer { server.stop() }
        let sandbox = try ClientKeptReplyTests.sandbox(server)
        let first = try sandbox.run("ps-send", ["--model", "ps-demo", "--print-ids", "start"])
        #expect(first.status == 0, "\(first.stderrText)")
        let id = try #require(Records.value("conversation", in: first.stderrText))
        let count = 6
        let sends = (1...count).map { "ps-send --model ps-demo --conversation \(id) 'question \($0)' >/dev/null 2>>'\(sandbox.directory)/err' & " }
        let batch = try sandbox.shell(sends.joined() + "failed=0; for job in $(jobs -p); do wait $job || failed=1; done; exit $failed")
        let errors = (try? String(contentsOfFile: sandbox.directory + "/err", encoding: .utf8)) ?? ""
        #expect(batch.status == 0, "\(errors)")
        let kept = try Records.parse(try sandbox.run("ps-history", ["--conversation", id]).stdoutText)
        #expect(kept.count == 2 + 2 * count, "\(kept.map { Records.text(of: $0) })")
        // Each question is followed by its own reply; every question is there once.
        let questions = kept.filter { $0["role"] as? String == "user" }.map { Records.text(of: $0) }
        #expect(Set(questions) == Set(["start"] + (1...count).map { "question \($0)" }) && questions.count == count + 1)
        for (index, message) in kept.enumerated() {
            #expect(message["role"] as? String == (index % 2 == 0 ? "user" : "assistant"), "\(index)")
        }
    }

    /// Every text ps-send would send is checked for secrets: the system prompt, and a tool
    /// call's input and output in --history records, not only the message and the texts.
    @Test func secretsInTheSystemPromptAndInHistoryToolPartsAreNotSent() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try OpenAIBackendTests.sandbox(server)
        let token = SecretGuardTests.token
        func sent() throws -> String {
            try server.requestLog().filter { $0["method"] as? String == "POST" }.map { "\($0["body"] ?? "")" }.joined()
        }
        try server.clearRequestLog()
        let system = try sandbox.run("ps-send", ["--model", "ps-demo", "--system", "You deploy with \(token)", "hello"])
        #expect(system.status == 2, "\(system.stderrText)")
        #expect(system.stderrText.hasPrefix("ps-send: --system line 1 holds what looks like a secret (github-token)"), "\(system.stderrText)")
        #expect(!system.stderrText.contains(token))
        #expect(try server.requestLog().filter { $0["method"] as? String == "POST" }.isEmpty)
        let redacted = try sandbox.run("ps-send", ["--model", "ps-demo", "--redact", "--system", "You deploy with \(token)", "hello"])
        #expect(redacted.status == 0, "\(redacted.stderrText)")
        #expect(redacted.stderrText.contains("redacted 1 secret in --system"), "\(redacted.stderrText)")
        #expect(try sent().contains("You deploy with [REDACTED:github-token]"))
        #expect(!(try sent()).contains(token))

        // A tool call's output in the history is sent back to the model as a "tool" message.
        let history = sandbox.directory + "/export.ndjson"
        let records = [
            #"{"id":"m1","role":"user","parts":[{"type":"text","text":"read the config"}]}"#,
            #"{"id":"m2","role":"assistant","parts":[{"type":"tool-read_page","toolCallId":"c1","state":"output-available","input":{"id":"p1"},"output":"GITHUB=\#(token)"},{"type":"text","text":"done"}]}"#,
        ]
        try (records.joined(separator: "\n") + "\n").write(toFile: history, atomically: true, encoding: .utf8)
        try server.clearRequestLog()
        let refused = try sandbox.run("ps-send", ["--model", "ps-demo", "--history", history, "go on"])
        #expect(refused.status == 2, "\(refused.stderrText)")
        #expect(refused.stderrText.contains("export.ndjson record 2: line 1 holds what looks like a secret (github-token)"), "\(refused.stderrText)")
        #expect(!(try sent()).contains(token))
        let redactedHistory = try sandbox.run("ps-send", ["--model", "ps-demo", "--redact", "--history", history, "go on"])
        #expect(redactedHistory.status == 0, "\(redactedHistory.stderrText)")
        let body = try sent()
        #expect(body.contains("[REDACTED:github-token]") && !body.contains(token), "\(body)")
    }

    /// C1 and bidi controls in NDJSON strings: escaped (\u009b, \u202e) when the NDJSON goes
    /// to a terminal, from ps-sse, ps-parts and ps-history alike; the same bytes as before in a
    /// pipe. JSON leaves them raw, and a terminal would act on them.
    @Test func ndjsonOnATerminalEscapesC1AndBidiControls() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try ClientKeptReplyTests.sandbox(server)
        let hostile = "A\u{9b}31mB\u{202e}C\u{2066}D\u{85}E\u{7f}F"
        let escaped = #"A\u009b31mB\u202eC\u2066D\u0085E\u007fF"#
        let events = [
            #"{"type":"start","messageId":"m1"}"#, #"{"type":"text-start","id":"t"}"#,
            #"{"type":"text-delta","id":"t","delta":"\#(hostile)"}"#, #"{"type":"text-end","id":"t"}"#,
            #"{"type":"finish"}"#, "[DONE]",
        ]
        let file = sandbox.directory + "/stream.sse"
        try events.map { "data: \($0)\n\n" }.joined().write(toFile: file, atomically: true, encoding: .utf8)
        let sent = try sandbox.run("ps-send", ["--model", "ps-demo", "say \(hostile)"])
        #expect(sent.status == 0, "\(sent.stderrText)")
        let controls = ["\u{9b}", "\u{202e}", "\u{2066}", "\u{85}", "\u{7f}"]
        for command in ["ps-sse < '\(file)'", "ps-sse < '\(file)' | ps-parts", "ps-sse < '\(file)' | ps-parts --final", "ps-history"] {
            let screen = try RenderedReplyTests.onTerminal(command, sandbox)
            #expect(screen.status == 0, "\(command)")
            let shown = String(decoding: screen.bytes, as: UTF8.self)
            #expect(shown.contains(escaped), "\(command): \(shown)")
            for control in controls { #expect(!shown.contains(control), "\(command) let \(control.unicodeScalars.first!.value) through") }
            // In a pipe: the bytes as JSON writes them, the controls raw.
            let piped = try sandbox.shell(command)
            #expect(piped.status == 0, "\(command): \(piped.stderrText)")
            #expect(piped.stdoutText.contains(hostile) && !piped.stdoutText.contains(escaped), "\(command): \(piped.stdoutText)")
            // Both are the same JSON values.
            // Both are the same JSON values (ps-history's progress on stderr, before a record, aside).
            let lines = shown.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n")
                .compactMap { line in line.range(of: "{\"").map { String(line[$0.lowerBound...]) } }
            let onTerminal = try Records.parse(lines.joined(separator: "\n"))
            let inPipe = try Records.parse(piped.stdoutText)
            func canonical(_ records: [[String: Any]]) throws -> Data { try JSONSerialization.data(withJSONObject: records, options: .sortedKeys) }
            #expect(try canonical(onTerminal) == canonical(inPipe), "\(command)")
        }
    }

    /// A state file naming a message the conversation never had, dated 2099, would make every
    /// run export nothing: it is refused (exit 3), saying why.
    @Test func aStateDatedInTheFutureIsRefused() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let state = sandbox.directory + "/state.json"
        let args = ["--conversation", LocalServer.globalConversationID, "--state", state]
        let first = try sandbox.run("ps-history", args)
        #expect(first.status == 0 && !first.stdout.isEmpty, "\(first.stderrText)")
        let key = "global:" + LocalServer.globalConversationID
        try #"{"version":2,"conversations":{"\#(key)":{"lastMessageId":"msg_unknown","lastCreatedAt":"2099-01-01T00:00:00.000Z","idsAtLastCreatedAt":["msg_unknown"]}}}"#
            .write(toFile: state, atomically: true, encoding: .utf8)
        let run = try sandbox.run("ps-history", args)
        #expect(run.status == 3, "\(run.stderrText)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderrText.hasPrefix("ps-history: \(state): \(key): the conversation's newest message ("), "\(run.stderrText)")
        #expect(run.stderrText.contains("is older than the last one exported (2099-01-01T00:00:00.000Z, a date to come)"), "\(run.stderrText)")
        #expect(run.stderrText.split(separator: "\n").count == 1, "\(run.stderrText)")
    }

    /// A history page whose entries are not all messages (`1`, `"x"`, `null`): the messages
    /// are written, the others reported (exit 3), whole export, --state or one page alike.
    @Test func historyEntriesThatAreNotMessagesAreReported() throws {
        let script = Executables.packageRoot.appendingPathComponent("Tests/CommandTests/Hostile/history_entries_server.py").path
        let server = try ChildProcess.spawn("/usr/bin/python3", [script], environment: Run.environment(), stdin: .null)
        defer {
            server.signalGroup(SIGTERM)
            _ = server.wait()
        }
        let port = String(decoding: server.readStdoutLine(timeout: 20), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(Int(port) != nil, "the hostile history server did not start")
        let sandbox = try NetworkSandbox(extra: [
            "PAGESPACE_TOKEN": "ps_sess_hostile", "PAGESPACE_API_URL": "http://127.0.0.1:\(port)",
            "PAGESPACE_API_KIND": "pagespace", "PS_RETRIES": "0",
        ])
        let state = sandbox.directory + "/state.json"
        for extra in [[], ["--state", state], ["--limit", "5"]] {
            let run = try sandbox.run("ps-history", ["--conversation", "c1"] + extra)
            #expect(run.status == 3, "\(extra): \(run.stderrText)")
            #expect(Records.ids(try Records.parse(run.stdoutText)) == ["m1", "m2"], "\(extra): \(run.stdoutText)")
            #expect(run.stderrText == "ps-history: global:c1: the server's history held 3 entries that are not a message "
                + "(a number, a string, null); left out, the 2 messages around them written\n", "\(extra)")
        }
        // The state follows what was written: a rerun has nothing new.
        let again = try sandbox.run("ps-history", ["--conversation", "c1", "--state", state])
        #expect(again.stdout.isEmpty, "\(again.stdoutText)")
    }

    /// The disk fills up during `ps-history --state S >> export`: exit 1 naming the file, the
    /// file holds whole records only, and the state claims nothing that is not in it, so that a
    /// rerun with room again completes the export with every message once. A small tmpfs in a
    /// mount namespace of its own (`unshare -m`, as root) is the full disk.
    @Test func aFullDiskLeavesNoBrokenLineAndTheRerunRepeatsNothing() throws {
        let server = try LocalServer.start(extraArguments: ["--history-messages", "300"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let folder = sandbox.directory
        let args = "ps-history --conversation \(LocalServer.globalConversationID) --page-size 50 --state '\(folder)/state.json'"
        let whole = try sandbox.shell("ps-history --conversation \(LocalServer.globalConversationID)")
        let ids = Records.ids(try Records.parse(whole.stdoutText))
        #expect(ids.count == 300)
        // Room for about half of the export.
        let room = max(8, whole.stdout.count / 2 / 1024)
        try FileManager.default.createDirectory(atPath: folder + "/disk", withIntermediateDirectories: true)
        let run = try sandbox.shell("""
            unshare -m bash -c '
            mount -t tmpfs -o size=\(room)k tmpfs "\(folder)/disk" || exit 99
            \(args) >> "\(folder)/disk/export" 2>"\(folder)/err1"; echo $? >"\(folder)/rc1"
            cp "\(folder)/disk/export" "\(folder)/export1"
            mount -o remount,size=16m "\(folder)/disk"
            \(args) >> "\(folder)/disk/export" 2>"\(folder)/err2"; echo $? >"\(folder)/rc2"
            cp "\(folder)/disk/export" "\(folder)/export2"'
            """)
        try #require(run.status == 0, "unshare and mount (as root): \(run.stderrText)")
        func read(_ name: String) -> String { (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? "" }
        #expect(read("rc1") == "1\n", "\(read("err1"))")
        #expect(read("err1") == "ps-history: cannot write to \(folder)/disk/export: No space left on device\n")
        let first = read("export1")
        #expect(first.isEmpty || first.hasSuffix("\n"), "a broken line")
        #expect(Records.ids(try Records.parse(first)) == Array(ids.prefix(Records.ids(try Records.parse(first)).count)))
        #expect(read("rc2") == "0\n", "\(read("err2"))")
        #expect(Records.ids(try Records.parse(read("export2"))) == ids)
    }
}
