import Foundation
import Testing
import TestSupport

/// ps-history stamps each record with its origin (ps-ndjson(5): scheme://PROFILE@host[:port]),
/// which ps-archive keys messages by: two servers seeded with the same ids share one archive
/// without a collision.
@Suite struct ArchiveOriginTests {
    @Test(arguments: LocalServer.dialects)
    func twoServersWithTheSameIdsShareOneArchive(dialect: String) throws {
        let first = try LocalServer.start(dialect: dialect, extraArguments: ["--quiet"])
        let second = try LocalServer.start(dialect: dialect, extraArguments: ["--quiet"])
        defer { first.stop(); second.stop() }
        let sandbox = try NetworkSandbox()
        for (profile, server) in [("work", first), ("lab team", second)] {
            let login = dialect == "pagespace"
                ? try sandbox.run("ps-auth", ["login", "--profile", profile, "--server", server.baseURL, "--with-token"],
                                  stdin: LocalServer.sessionToken + "\n")
                : try sandbox.run("ps-auth", ["login", "--profile", profile, "--server", server.baseURL,
                                              "--email", LocalServer.email, "--password-stdin"], stdin: LocalServer.password + "\n")
            try #require(login.status == 0, "\(login.stderrText)")
        }
        let db = sandbox.directory + "/archive.sqlite"
        let run = try sandbox.shell("""
            cd '\(sandbox.directory)'
            ps-history --profile work > work.ndjson
            ps-history --profile 'lab team' > lab.ndjson
            ps-history --profile work --list > list.ndjson
            cat work.ndjson lab.ndjson list.ndjson | ps-archive --db '\(db)'
            """)
        try #require(run.status == 0, "\(run.stderrText)")
        func lines(_ name: String) throws -> [String] {
            try String(contentsOfFile: sandbox.directory + "/" + name, encoding: .utf8).split(separator: "\n").map(String.init)
        }
        let workOrigin = "http://work@" + first.baseURL.dropFirst("http://".count)
        let labOrigin = "http://lab%20team@" + second.baseURL.dropFirst("http://".count)
        let work = try Records.parse(try lines("work.ndjson").joined(separator: "\n"))
        let lab = try Records.parse(try lines("lab.ndjson").joined(separator: "\n"))
        try #require(!work.isEmpty)
        #expect(Records.ids(work) == Records.ids(lab), "both servers seed the same ids")
        #expect(work.allSatisfy { $0["origin"] as? String == workOrigin }, "\(work.first ?? [:])")
        #expect(lab.allSatisfy { $0["origin"] as? String == labOrigin }, "\(lab.first ?? [:])")
        let listed = try Records.parse(try lines("list.ndjson").joined(separator: "\n"))
        #expect(!listed.isEmpty && listed.allSatisfy { $0["origin"] as? String == workOrigin })

        let stats = try sandbox.run("ps-archive", ["--db", db, "--stats"])
        let rows = try Records.parse(stats.stdoutText)
        #expect(rows.map { $0["source"] as? String } == [labOrigin, workOrigin].sorted().map { $0 }, "\(rows)")
        #expect(rows.allSatisfy { $0["messages"] as? Int == work.count }, "\(rows)")
        let exported = try sandbox.run("ps-archive", ["--db", db, "--export", "--source", labOrigin])
        #expect(exported.stdoutLines == (try lines("lab.ndjson")), "the same records come back out")
    }
}
