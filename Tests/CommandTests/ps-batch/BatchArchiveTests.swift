import Foundation
import Testing
import TestSupport

/// ps-batch --archive: each job's exchange stored in the sandbox's archive (a real SQLite file)
/// as the job ends, several jobs two at a time; an archive that cannot take them stops no job
/// and loses no record (exit 12, one line).
@Suite struct BatchArchiveTests {
    static let jobs = """
        {"id":"a","message":"Tell me about the aardvark"}
        {"id":"b","message":"Tell me about the bonobo"}
        {"id":"c","message":"Tell me about the capybara"}
        {"id":"d","message":"Tell me about the dugong"}

        """

    @Test func everyJobsExchangeIsKeptAndFound() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let batch = try sandbox.run("ps-batch", ["--archive", "--concurrency", "2"], stdin: Self.jobs)
        #expect(batch.status == 0, "\(batch.stderrText)")
        let results = try Records.parse(batch.stdoutText)
        #expect(results.map { $0["status"] as? String } == ["ok", "ok", "ok", "ok"])

        let records = try SendArchiveTests.archived(sandbox)
        #expect(records.count == 8, "\(records.count) records")
        let origin = "http://default@" + server.baseURL.dropFirst("http://".count)
        #expect(records.allSatisfy { $0["origin"] as? String == origin })
        for result in results {
            let conversation = try #require(result["conversation"] as? String)
            let reply = try #require(result["message"] as? [String: Any])
            let kept = records.filter { $0["conversationId"] as? String == conversation }
            #expect(kept.map { $0["role"] as? String } == ["user", "assistant"], "\(kept)")
            #expect(kept.last?["id"] as? String == reply["id"] as? String)
        }
        for animal in ["aardvark", "bonobo", "capybara", "dugong"] {
            #expect(try SendArchiveTests.searchIDs(sandbox, animal).count == 2, "\(animal)")
        }
    }

    @Test func anArchiveThatCannotTakeThemStopsNoJob() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let path = SendArchiveTests.archivePath(sandbox)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "not an archive\n".write(toFile: path, atomically: true, encoding: .utf8)
        let batch = try sandbox.run("ps-batch", ["--archive", "--concurrency", "2"], stdin: Self.jobs)
        #expect(batch.status == 12, "\(batch.stderrText)")
        let results = try Records.parse(batch.stdoutText)
        #expect(results.map { $0["status"] as? String } == ["ok", "ok", "ok", "ok"])
        let lines = batch.stderrText.split(separator: "\n").filter { !$0.hasPrefix("ps-batch: 4 jobs:") }
        #expect(lines.count == 1, "\(batch.stderrText)")
        #expect(lines.first?.hasPrefix("ps-batch: 4 of 4 exchanges were not archived (the first: ") == true, "\(batch.stderrText)")
    }
}
