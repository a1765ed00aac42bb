import Foundation
import Testing
import TestSupport

/// ps-batch against the local server: many jobs through injected 429s and 5xx, the rate cap
/// read from the server's request times, kill -9 and a rerun with --state counted from the
/// server's log, and the input checked before anything is sent.
@Suite struct BatchTests {
    static func jobs(_ count: Int, prefix: String = "Question") -> String {
        (1...count).map { "{\"id\":\"j\($0)\",\"message\":\"\(prefix) number \(String(format: "%03d", $0)), briefly\"}\n" }.joined()
    }

    /// The sends the server received (PageSpace's Global messages route, or chat completions).
    static func sends(_ server: LocalServer) throws -> [[String: Any]] {
        try server.requestLog().filter { entry in
            guard entry["method"] as? String == "POST", let path = entry["path"] as? String else { return false }
            return path.hasSuffix("/chat/completions") || (path.hasPrefix("/api/ai/global/") && path.hasSuffix("/messages"))
        }
    }

    /// How many of `sends` carry job `number`'s message.
    static func count(_ sends: [[String: Any]], job number: Int, prefix: String = "Question") -> Int {
        let marker = "\(prefix) number \(String(format: "%03d", number)),"
        return sends.filter { entry in
            guard let body = entry["body"], let data = try? JSONSerialization.data(withJSONObject: body) else { return false }
            return String(decoding: data, as: UTF8.self).contains(marker)
        }.count
    }

    static func openAISandbox(_ server: LocalServer) throws -> NetworkSandbox {
        try NetworkSandbox(extra: ["PAGESPACE_API_URL": server.baseURL, "PAGESPACE_API_KIND": "openai"])
    }

    @Test func fiftyJobsAtConcurrencyFourGetThroughInjected429sAnd5xx() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        try server.armFault(#"{"status":429,"retryAfter":1,"times":3,"path":"/api/ai/global"}"#)
        try server.armFault(#"{"status":503,"times":3,"path":"/api/ai/global"}"#)
        try server.armFault(#"{"status":502,"times":2,"path":"/api/ai/global"}"#)
        let result = try sandbox.run("ps-batch", ["--concurrency", "4"], stdin: Self.jobs(50))
        #expect(result.status == 0, "\(result.stderrText)")
        let records = try Records.parse(result.stdoutText)
        #expect(records.count == 50)
        #expect(Set(Records.ids(records)) == Set((1...50).map { "j\($0)" }))
        #expect(records.allSatisfy { $0["type"] as? String == "batch-result" && $0["status"] as? String == "ok" })
        for record in records {
            let text = try #require(record["text"] as? String)
            let id = try #require(record["id"] as? String)
            #expect(text.contains("number " + String(format: "%03d", Int(id.dropFirst())!)), "\(id): \(text.prefix(80))")
            #expect((record["message"] as? [String: Any])?["role"] as? String == "assistant")
        }
        // Each job its own conversation.
        #expect(Set(records.compactMap { $0["conversation"] as? String }).count == 50)
        // Every send is counted in its job's attempts: the 8 refused ones went again.
        let sends = try Self.sends(server)
        let attempts = records.compactMap { $0["attempts"] as? Int }.reduce(0, +)
        #expect(sends.count == 58 && attempts == 58, "sends \(sends.count), attempts \(attempts)")
        #expect(result.stderrText.contains("ps-batch: 50 jobs: 50 ok, 0 failed, 0 invalid"), "\(result.stderrText)")
        #expect(result.stderrText.contains("rate limited"))  // the retries are said on stderr (not a terminal)
    }

    @Test func theRateCapSpacesTheSendsEvenly() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.openAISandbox(server)
        let result = try sandbox.run("ps-batch", ["--model", "ps-demo", "--concurrency", "4", "--rate", "300/m"], stdin: Self.jobs(12))
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(try Records.parse(result.stdoutText).count == 12)
        let times = try Self.sends(server).compactMap { $0["receivedAt"] as? Int }.sorted()
        #expect(times.count == 12)
        // 300/m is one send every 200 ms across the four workers. A send may reach the server
        // up to `late` ms after ps-batch started it (a new connection, a busy machine), so any
        // k sends after one come at least k × 200 − late ms after it.
        let late = 100
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        for first in times.indices {
            for later in times.indices where later > first {
                #expect(times[later] - times[first] >= (later - first) * 200 - late, "gaps \(gaps)")
            }
        }
    }

    /// kill -9 while replies are streaming, then a rerun with the same --state: every job has
    /// one ok result in all. PageSpace keeps the conversations: no message was sent twice (the
    /// rerun read the cut replies back); the openai dialect keeps nothing: a cut job went again,
    /// and its attempts count both sends.
    @Test(arguments: ["pagespace", "openai"])
    func killNineThenRerunGivesEachJobOneResult(_ dialect: String) throws {
        let server = try LocalServer.start(dialect: dialect, extraArguments: ["--quiet", "--pace-ms", "30"])
        defer { server.stop() }
        let sandbox = dialect == "openai" ? try Self.openAISandbox(server) : try NetworkSandbox(server: server)
        let folder = sandbox.directory
        try Self.jobs(12).write(toFile: folder + "/jobs.ndjson", atomically: true, encoding: .utf8)
        let model = dialect == "openai" ? "--model ps-demo" : ""
        let first = try sandbox.shell("""
            cd '\(folder)'
            ps-batch \(model) --concurrency 4 --state run.state jobs.ndjson > first.ndjson 2> first.err &
            pid=$!
            for _ in $(seq 1 200); do
                [ "$(wc -l < first.ndjson)" -ge 3 ] && break
                sleep 0.05
            done
            kill -9 $pid
            wait $pid
            echo "killed $?"
            """)
        #expect(first.stdoutText.contains("killed 137"), "\(first.stdoutText) \(first.stderrText)")
        let firstRecords = try Records.parse(try String(contentsOfFile: folder + "/first.ndjson", encoding: .utf8))
        #expect(firstRecords.count >= 3 && firstRecords.count < 12, "\(firstRecords.count) results before the kill")
        let sentBeforeRerun = try Self.sends(server).count
        let second = try sandbox.shell("cd '\(folder)' && ps-batch \(model) --concurrency 4 --state run.state jobs.ndjson")
        #expect(second.status == 0, "\(second.stderrText)")
        let secondRecords = try Records.parse(second.stdoutText)
        let all = firstRecords + secondRecords
        #expect(all.allSatisfy { $0["status"] as? String == "ok" })
        // Each job has a result. One whose result was written in the instant before the kill,
        // before its state was, gets a second from the rerun (ps-batch(1)): at most one per
        // job in flight, with the same conversation, its reply read back on a server that keeps it.
        #expect(Set(Records.ids(all)) == Set((1...12).map { "j\($0)" }), "\(Records.ids(all))")
        let firstIDs = Set(Records.ids(firstRecords))
        let again = secondRecords.filter { firstIDs.contains($0["id"] as? String ?? "") }
        #expect(again.count <= 4 && all.count == 12 + again.count, "\(Records.ids(all))")
        #expect(second.stderrText.contains("\(firstRecords.count - again.count) done before"), "\(second.stderrText)")
        let sends = try Self.sends(server)
        for record in all where !again.contains(where: { $0["id"] as? String == record["id"] as? String }) {
            let number = Int((record["id"] as! String).dropFirst())!
            #expect(record["attempts"] as? Int == Self.count(sends, job: number), "job \(number): \(record)")
        }
        if dialect == "pagespace" {
            for record in again {
                let earlier = firstRecords.first { $0["id"] as? String == record["id"] as? String }
                #expect(record["conversation"] as? String == earlier?["conversation"] as? String, "\(record)")
            }
        }
        if dialect == "pagespace" {
            // Sent once each; the replies cut by the kill were read back, not asked again.
            #expect(sends.count == 12, "\(sends.count) sends")
            #expect(sentBeforeRerun > firstRecords.count - again.count, "no job was in flight at the kill")
            for record in all {
                let conversation = try #require(record["conversation"] as? String)
                let history = try sandbox.run("ps-history", ["--conversation", conversation])
                let roles = try Records.parse(history.stdoutText).compactMap { $0["role"] as? String }
                #expect(roles == ["user", "assistant"], "\(conversation): \(roles)")
            }
        } else {
            #expect(all.contains { $0["attempts"] as? Int == 2 }, "no job was cut mid-reply: \(all.map { $0["attempts"] ?? 0 })")
        }
    }

    /// The first Ctrl-C starts no new job and lets those in flight finish: every job sent has its
    /// result, the rest is left for a rerun with --state; exit 130.
    @Test func ctrlCLetsTheJobsInFlightFinish() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet", "--pace-ms", "30"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let folder = sandbox.directory
        try Self.jobs(12).write(toFile: folder + "/jobs.ndjson", atomically: true, encoding: .utf8)
        let run = try sandbox.shell("""
            cd '\(folder)'
            ps-batch --concurrency 3 --state run.state jobs.ndjson > out.ndjson 2> err.txt &
            pid=$!
            for _ in $(seq 1 200); do
                [ "$(wc -l < out.ndjson)" -ge 1 ] && break
                sleep 0.05
            done
            kill -INT $pid
            wait $pid
            echo "status $?"
            """)
        #expect(run.stdoutText.contains("status 130"), "\(run.stdoutText)")
        let records = try Records.parse(try String(contentsOfFile: folder + "/out.ndjson", encoding: .utf8))
        let sends = try Self.sends(server)
        #expect(records.count < 12, "every job ran")
        #expect(records.allSatisfy { $0["status"] as? String == "ok" })
        #expect(records.count == sends.count, "\(sends.count) sent, \(records.count) results")
        let stderr = try String(contentsOfFile: folder + "/err.txt", encoding: .utf8)
        #expect(stderr.contains("\(12 - records.count) not run") && stderr.contains("interrupted"), "\(stderr)")
        let rerun = try sandbox.shell("cd '\(folder)' && ps-batch --concurrency 3 --state run.state jobs.ndjson")
        #expect(rerun.status == 0)
        #expect(try Records.parse(rerun.stdoutText).count == 12 - records.count)
    }

    /// `| head -1` ends ps-batch quietly: status 141, nothing on stderr.
    @Test func aReaderThatLeavesEndsTheRunQuietly() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let result = try sandbox.shell("printf '%s' '\(Self.jobs(6))' | ps-batch 2> \"$HOME/err.txt\" | head -1; echo \"${PIPESTATUS[1]}\"; cat \"$HOME/err.txt\"")
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.count == 2 && lines[1] == "141", "\(result.stdoutText)")
        #expect(try Self.sends(server).count < 6)
    }

    /// Every backend, through its profile: a job a killed run had sent (its state says
    /// `sending`, naming the conversation and the message) is read back where the server keeps
    /// the conversation, not sent again; on a plain OpenAI-compatible server it is sent again.
    /// The other job runs as usual, and a third run has nothing left to do.
    @Test(arguments: EveryBackendTests.backends)
    func everyBackendRunsJobsAndReadsBackOneAlreadySent(_ backend: EveryBackendTests.Backend) throws {
        let (server, sandbox) = try backend.startLoggedIn()
        defer { server.stop() }
        let env = ["PS_PROFILE": backend.kind]
        let sent = try sandbox.shell("ps-send --new-conversation --print-ids 'Question number 001, briefly' 2>&1 >/dev/null", env: env)
        let conversation = try #require(Records.value("conversation", in: sent.stdoutText), "\(backend): \(sent.stdoutText)")
        let message = Records.value("message", in: sent.stdoutText) ?? "unknown"
        let state = sandbox.directory + "/run.state"
        try "{\"id\":\"j1\",\"status\":\"sending\",\"conversation\":\"\(conversation)\",\"messageId\":\"\(message)\",\"attempts\":1}\n"
            .write(toFile: state, atomically: true, encoding: .utf8)
        let run = try sandbox.run("ps-batch", ["--concurrency", "2", "--state", state], stdin: Self.jobs(2), env: env)
        #expect(run.status == 0, "\(backend): \(run.stderrText)")
        let records = try Records.parse(run.stdoutText)
        #expect(Set(Records.ids(records)) == ["j1", "j2"], "\(backend)")
        #expect(records.allSatisfy { $0["status"] as? String == "ok" && !(($0["text"] as? String) ?? "").isEmpty }, "\(backend): \(records)")
        let first = try #require(records.first { $0["id"] as? String == "j1" })
        #expect(first["conversation"] as? String == conversation)
        // The sends: every POST but those that make a conversation (titled with the message).
        let posts = try server.requestLog().filter {
            $0["method"] as? String == "POST" && ($0["path"] as? String)?.hasSuffix("conversations") == false
        }
        let keeps = backend.kind != "openai"
        #expect(Self.count(posts, job: 1) == (keeps ? 1 : 2), "\(backend): job 1 sent \(Self.count(posts, job: 1)) times")
        #expect(first["attempts"] as? Int == (keeps ? 1 : 2), "\(backend)")
        #expect(Self.count(posts, job: 2) == 1, "\(backend)")
        let again = try sandbox.run("ps-batch", ["--state", state], stdin: Self.jobs(2), env: env)
        #expect(again.status == 0 && again.stdoutText.isEmpty && again.stderrText.contains("2 done before"), "\(backend): \(again.stderrText)")
    }

    @Test func aDuplicateIdIsRefusedBeforeAnythingIsSent() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let input = Self.jobs(3) + "{\"id\":\"j2\",\"message\":\"again\"}\n"
        let result = try sandbox.run("ps-batch", [], stdin: input)
        #expect(result.status == 3)
        #expect(result.stdoutText.isEmpty)
        #expect(result.stderrText.hasPrefix("ps-batch: stdin line 4: the id \"j2\" is taken by line 2"), "\(result.stderrText)")
        #expect(try Self.sends(server).isEmpty)
        let noID = try sandbox.run("ps-batch", [], stdin: "{\"message\":\"hi\"}\n")
        #expect(noID.status == 3 && noID.stderrText.contains("line 1 has no id"), "\(noID.stderrText)")
        let notJSON = try sandbox.run("ps-batch", [], stdin: Self.jobs(1) + "not json\n")
        #expect(notJSON.status == 3 && notJSON.stderrText.contains("line 2 is not a JSON object"), "\(notJSON.stderrText)")
        #expect(try Self.sends(server).isEmpty)
    }

    /// A job the server refuses fails (its record says why and with which status), the others
    /// go on; the summary counts them and the exit status is the failure's. A rerun with the
    /// state runs only what is not done.
    @Test func aFailedJobSetsTheExitStatusAndARerunFinishesIt() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let state = sandbox.directory + "/batch.state"
        try server.armFault(#"{"status":403,"times":1,"path":"/api/ai/global"}"#)
        let first = try sandbox.run("ps-batch", ["--state", state], stdin: Self.jobs(3))
        #expect(first.status == 5, "\(first.stderrText)")
        let records = try Records.parse(first.stdoutText)
        #expect(records.map { $0["status"] as? String } == ["failed", "ok", "ok"])
        #expect(records.first?["exit"] as? Int == 5)
        #expect((records.first?["error"] as? String)?.isEmpty == false)
        #expect(first.stderrText.contains("ps-batch: 3 jobs: 2 ok, 1 failed, 0 invalid in "), "\(first.stderrText)")
        let second = try sandbox.run("ps-batch", ["--state", state], stdin: Self.jobs(3))
        #expect(second.status == 0, "\(second.stderrText)")
        #expect(Records.ids(try Records.parse(second.stdoutText)) == ["j1"])
        #expect(second.stderrText.contains("3 jobs: 1 ok, 0 failed, 0 invalid, 2 done before"), "\(second.stderrText)")
        #expect(try Self.sends(server).count == 4)
    }
}
