import Foundation
import Testing
import TestSupport

/// `ps-history --state` from cron: runs that overlap take turns, a state file that is wrong
/// is refused by name, and what a killed run left behind is cleared.
@Suite(.serialized) struct StateFileTests {
    static let conversation = LocalServer.globalConversationID

    /// Two runs started at once (cron starting one while the last is still going) each used to
    /// export everything: 6,000 lines for 3,000 messages. The second now waits for the first
    /// and then finds nothing new.
    @Test func overlappingRunsExportEachMessageOnce() throws {
        let server = try LocalServer.start(extraArguments: ["--history-messages", "3000", "--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let state = sandbox.directory + "/state.json", out = sandbox.directory + "/export.ndjson"
        let run = try sandbox.shell("""
            ps-history --conversation \(Self.conversation) --all --state \(state) --page-size 50 >> \(out) 2>> \(out).err &
            first=$!
            ps-history --conversation \(Self.conversation) --all --state \(state) --page-size 50 >> \(out) 2>> \(out).err &
            second=$!
            wait $first; a=$?; wait $second; b=$?; echo "$a $b"
            """)
        let errors = (try? String(contentsOfFile: out + ".err", encoding: .utf8)) ?? ""
        #expect(run.stdoutText == "0 0\n", "\(run.stdoutText) \(errors)")
        let ids = Records.ids(try Records.parse(try String(contentsOfFile: out, encoding: .utf8)))
        #expect(ids.count == 3000)
        #expect(Set(ids).count == 3000)
    }

    /// A run that cannot get the lock in time says who holds it and which flag waits longer,
    /// and writes nothing; once the holder is gone, the next run exports.
    @Test func aRunThatCannotWaitLongerSaysSo() throws {
        let server = try LocalServer.start(extraArguments: ["--history-messages", "20", "--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let state = sandbox.directory + "/state.json"
        // Another process holds the lock for a few seconds.
        let holder = try ChildProcess.spawn(
            "/usr/bin/python3",
            ["-c", "import fcntl,sys,time; f=open(sys.argv[1],'w'); fcntl.flock(f, fcntl.LOCK_EX); "
                + "f.write('4242\\n'); f.flush(); print('locked', flush=True); time.sleep(4)", state + ".lock"],
            environment: Run.environment(sandbox.environment))
        #expect(String(decoding: holder.readStdoutLine(timeout: 10), as: UTF8.self).hasPrefix("locked"))
        let refused = try sandbox.run("ps-history", ["--conversation", Self.conversation, "--state", state, "--lock-wait", "0.3"])
        #expect(refused.status == 1, "\(refused.stderrText)")
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderrText.contains("pid 4242"), "\(refused.stderrText)")
        #expect(refused.stderrText.contains("--lock-wait"), "\(refused.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: state))
        // The default wait outlasts the holder.
        let waited = try sandbox.run("ps-history", ["--conversation", Self.conversation, "--state", state])
        #expect(waited.status == 0, "\(waited.stderrText)")
        #expect(waited.stderrText.contains("waiting"), "\(waited.stderrText)")
        #expect(Records.ids(try Records.parse(waited.stdoutText)).count == 20)
        _ = holder.collect(input: nil, timeout: 10)
    }

    /// A state that is wrong is refused (exit 3) by the name of its field, never taken as
    /// "nothing new" (a lastCreatedAt that is not a date) or as "everything" (an entry that is
    /// not an object).
    @Test(arguments: [
        (#"{"version":2,"conversations":{"global:ID":{"lastMessageId":"m1","lastCreatedAt":"yesterday"}}}"#, "lastCreatedAt"),
        (#"{"version":2,"conversations":{"global:ID":{"lastMessageId":"m1","idsAtLastCreatedAt":5}}}"#, "idsAtLastCreatedAt"),
        (#"{"version":2,"conversations":{"global:ID":5}}"#, "not an object"),
        (#"{"version":2,"conversations":{"global:ID":{"lastMessageId":"m1","nextOffset":-3}}}"#, "nextOffset"),
        (#"{"version":2,"conversations":{"global:ID":{"lastCreatedAt":"2026-01-01T00:00:00Z"}}}"#, "lastMessageId"),
        (#"{"version":7,"conversations":{}}"#, "version"),
        (#"{"version":2}"#, "conversations"),
        ("not json at all", "not a ps-history state file"),
    ])
    func aWrongStateIsRefusedByName(content: String, field: String) throws {
        let server = try LocalServer.start(extraArguments: ["--history-messages", "20", "--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let state = sandbox.directory + "/state.json"
        let text = content.replacingOccurrences(of: "global:ID", with: "global:" + Self.conversation)
        try text.write(toFile: state, atomically: true, encoding: .utf8)
        let run = try sandbox.run("ps-history", ["--conversation", Self.conversation, "--state", state])
        #expect(run.status == 3, "\(run.stderrText)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderrText.hasPrefix("ps-history: \(state): "), "\(run.stderrText)")
        #expect(run.stderrText.contains(field), "\(run.stderrText)")
        #expect(run.stderrText.contains("move"), "\(run.stderrText)")
        #expect(try String(contentsOfFile: state, encoding: .utf8) == text, "the file was changed")
    }

    /// `kill -9` during a save leaves FILE.tmp-PID: the next run clears it.
    @Test func aKilledRunsTemporaryFileIsCleared() throws {
        let server = try LocalServer.start(extraArguments: ["--history-messages", "20", "--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let state = sandbox.directory + "/state.json"
        #expect(try sandbox.run("ps-history", ["--conversation", Self.conversation, "--state", state]).status == 0)
        let leftovers = [state + ".tmp-999999", state + ".tmp-12"]
        for path in leftovers { try "{\"half".write(toFile: path, atomically: false, encoding: .utf8) }
        let other = sandbox.directory + "/state.json.tmp-notapid"
        try "keep".write(toFile: other, atomically: false, encoding: .utf8)
        let again = try sandbox.run("ps-history", ["--conversation", Self.conversation, "--state", state])
        #expect(again.status == 0, "\(again.stderrText)")
        #expect(again.stdout.isEmpty)
        for path in leftovers { #expect(!FileManager.default.fileExists(atPath: path), "\(path) left behind") }
        #expect(FileManager.default.fileExists(atPath: other), "not ours to remove")
    }
}
