import Foundation
import Testing
import TestSupport

/// ps-archive-postgres, the one command that links PostgreSQL's client (package ps-tools-server):
/// ps-archive's options, and `search` with ps-search's archive options. ps-archive and ps-search
/// link neither PostgresNIO nor Foundation, and send a postgresql:// archive to it (exit 2). What
/// it stores and finds is ArchiveTests', on both stores.
@Suite struct PostgresCommandTests {
    static let url = "postgresql://u:secret-42@127.0.0.1:1/x"

    /// The symbols defined in a built executable.
    static func symbols(_ name: String) throws -> String {
        let result = try Run.command("/usr/bin/nm", ["--defined-only", Executables.url(name).path], timeout: 300)
        #expect(result.status == 0, "\(result.stderrText)")
        return result.stdoutText
    }

    @Test(arguments: ["ps-archive", "ps-search"])
    func linksNeitherNIONorFoundation(_ command: String) throws {
        let symbols = try Self.symbols(command)
        #expect(symbols.contains("9PSArchive"), "the archive code is there (the check sees Swift symbols)")
        #expect(!symbols.contains("7NIOCore") && !symbols.contains("11PostgresNIO") && !symbols.contains("17PSArchivePostgres"))
        let libraries = try Run.command("/usr/bin/ldd", [Executables.url(command).path])
        #expect(libraries.status == 0 && libraries.stdoutText.contains("libjansson"), "\(libraries.stdoutText)")
        for library in ["libFoundation.so", "libFoundationInternationalization", "ICU"] {
            #expect(!libraries.stdoutText.contains(library), "\(command) loads \(library)")
        }
        // SQLite is linked in (Debian's libsqlite3.a), not loaded: its shared library binds every
        // symbol at start (Package.swift).
        #expect(symbols.contains(" T sqlite3_open_v2") && !libraries.stdoutText.contains("libsqlite3"))
    }

    @Test func psArchivePostgresLinksPostgresNIOAndTheArchiveCommand() throws {
        let symbols = try Self.symbols("ps-archive-postgres")
        #expect(symbols.contains("11PostgresNIO") && symbols.contains("16PSArchiveCommand"))
    }

    /// ps-archive and ps-search given a postgresql:// archive: exit 2, one line naming the
    /// command to run and its package (not the password), before anything is read.
    @Test func psArchiveAndPsSearchNameTheCommandForAPostgresArchive() throws {
        let archive = "ps-archive: a PostgreSQL archive (--db postgresql://…) is kept by ps-archive-postgres, "
            + "with the same options (package ps-tools-server)\n"
        for arguments in [["--db", Self.url, "--source", "work"], ["--stats", "--db", Self.url, "--json"],
                          ["--db=postgres://u:secret-42@h/x", "--export"]] {
            let result = try Run.command("ps-archive", arguments, stdin: Data("not read\n".utf8))
            #expect(result.status == 2, "\(arguments): \(result.stderrText)")
            #expect(result.stderrText == archive)
            #expect(result.stdout.isEmpty)
        }
        let search = "ps-search: a PostgreSQL archive (--db postgresql://…) is searched by "
            + "ps-archive-postgres search --db URL QUERY (package ps-tools-server)\n"
        for arguments in [["--db", Self.url, "launch"], ["--db", Self.url, "--role", "user", "--limit", "5", "launch"]] {
            let result = try Run.command("ps-search", arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderrText)")
            #expect(result.stderrText == search)
            #expect(result.stdout.isEmpty)
        }
    }

    /// Its --help is a glance naming both halves, --version answers; --db is required and takes a
    /// postgresql:// URL only (exit 2, one line).
    @Test func itAnswersHelpAndVersionAndTakesOnlyAPostgresURL() throws {
        let help = try Run.command("ps-archive-postgres", ["--help"])
        #expect(help.status == 0)
        #expect(help.stdoutText.contains("\n  archive ") && help.stdoutText.contains("\n  search "), "\(help.stdoutText)")
        #expect(help.stdoutText.hasSuffix("The description, environment and exit status: man ps-archive-postgres\n"))
        let version = try Run.command("ps-archive-postgres", ["--version"])
        #expect(version.status == 0 && version.stdoutText.hasPrefix("ps-archive-postgres "))
        let bare = try Run.command("ps-archive-postgres", [], stdin: Data())
        #expect(bare.status == 2)
        #expect(bare.stderrText.hasPrefix("ps-archive-postgres: missing expected argument '--db <url>'"), "\(bare.stderrText)")
        let sqlite = "ps-archive-postgres: --db takes a postgresql:// URL (an SQLite archive is ps-archive's)\n"
        for arguments in [["--db", "archive.sqlite", "--stats"], ["search", "--db", "archive.sqlite", "launch"]] {
            let result = try Run.command("ps-archive-postgres", arguments, stdin: Data())
            #expect(result.status == 2, "\(arguments): \(result.stderrText)")
            #expect(result.stderrText == sqlite)
        }
    }

    /// Options before `search` are its own (`ps-archive-postgres --db URL search QUERY`), and a
    /// database that does not exist is exit 6 on one line without the password.
    @Test func aSearchFindsWhatWasStoredAndAMissingDatabaseIsExit6() throws {
        let server = try PostgresTestServer.require()
        let db = try server.newDatabase()
        let records = [
            ArchiveTests.message("m1", "When is the launch date?"),
            ArchiveTests.message("m2", "The launch moved to March", role: "assistant"),
        ]
        let stored = try Run.command("ps-archive-postgres", ["--db", db], stdin: ArchiveTests.lines(records))
        #expect(stored.status == 0, "\(stored.stderrText)")
        let found = try Run.command("ps-archive-postgres", ["search", "--db", db, "launch"])
        #expect(found.status == 0, "\(found.stderrText)")
        #expect(found.stdoutLines.count == 2)
        let before = try Run.command("ps-archive-postgres", ["--db", db, "search", "launch"])
        #expect(before.status == 0 && before.stdoutText == found.stdoutText, "\(before.stderrText)")

        for arguments in [["search", "--db", server.url("no_such_database"), "launch"], ["--db", server.url("no_such_database"), "--stats"]] {
            let missing = try Run.command("ps-archive-postgres", arguments)
            #expect(missing.status == 6, "\(arguments): \(missing.stderrText)")
            #expect(missing.stderrText.hasPrefix("ps-archive-postgres: postgresql://\(PostgresTestServer.user)@127.0.0.1:\(server.port)/no_such_database: "))
            #expect(missing.stderrText.split(separator: "\n").count == 1 && !missing.stderrText.contains(server.password))
        }
    }
}
