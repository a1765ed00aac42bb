import Foundation
import Testing
import TestSupport

/// ps-search does not link PostgresNIO: a PostgreSQL archive is searched by the helper,
/// `ps-archive-postgres --serve-search`, found beside ps-search or in ../lib/ps-tools, the
/// request (and its password) on the helper's standard input.
@Suite final class ArchiveSearchHelperTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ps-search-helper-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// ps-search in this test's folder: a hard link where the file system allows, else a copy.
    func psSearchOfItsOwn() throws -> URL {
        let copy = folder.appendingPathComponent("ps-search")
        if link(Executables.url("ps-search").path, copy.path) != 0 {
            try FileManager.default.copyItem(at: Executables.url("ps-search"), to: copy)
        }
        try Executables.linkSharedLibrary(into: folder)
        return copy
    }

    /// Runs a program this test wrote. A process another test starts meanwhile may hold it open
    /// for writing for a moment (between its fork and exec): "Text file busy" is tried again.
    func runWritten(_ path: String, _ arguments: [String], environment: [String: String]) throws -> ProcessResult {
        for _ in 0..<50 {
            do {
                return try Run.command(path, arguments, environment: environment)
            } catch where "\(error)".contains("Text file busy") {
                usleep(100_000)
            }
        }
        return try Run.command(path, arguments, environment: environment)
    }

    /// The symbols defined in a built executable.
    static func symbols(_ name: String) throws -> String {
        let result = try Run.command("/usr/bin/nm", ["--defined-only", Executables.url(name).path], timeout: 300)
        #expect(result.status == 0, "\(result.stderrText)")
        return result.stdoutText
    }

    @Test func psSearchLinksNeitherNIONorFoundation() throws {
        let search = try Self.symbols("ps-search")
        #expect(search.contains("9PSArchive"), "the archive code is there (the check sees Swift symbols)")
        #expect(!search.contains("7NIOCore") && !search.contains("11PostgresNIO"))
        #expect(try Self.symbols("ps-archive-postgres").contains("11PostgresNIO"), "the helper has it")
        let libraries = try Run.command("/usr/bin/ldd", [Executables.url("ps-search").path])
        #expect(libraries.status == 0)
        #expect(libraries.stdoutText.contains("libjansson"), "\(libraries.stdoutText)")
        for library in ["libFoundation.so", "libFoundationInternationalization", "ICU"] {
            #expect(!libraries.stdoutText.contains(library), "ps-search loads \(library)")
        }
        // SQLite is linked in (Debian's libsqlite3.a), not loaded: its shared library binds every
        // symbol at start (Package.swift).
        #expect(search.contains(" T sqlite3_open_v2") && !libraries.stdoutText.contains("libsqlite3"))
    }

    /// A copy of ps-search in a folder of its own, the build folder (with the helper) on PATH:
    /// no helper beside it nor in ../lib/ps-tools is exit 1, saying what is missing and where
    /// it was looked for (and not the password); PATH is not searched.
    @Test func withoutItsHelperAPostgresSearchIsExit1() throws {
        let copy = try psSearchOfItsOwn()
        let result = try runWritten(copy.path, ["--db", "postgresql://u:secret-42@127.0.0.1:1/x", "launch"],
                                     environment: ["PATH": Executables.directory.path + ":/usr/bin:/bin"])
        #expect(result.status == 1)
        let parent = folder.deletingLastPathComponent().path
        #expect(result.stderrText == "ps-search: cannot search a PostgreSQL archive: ps-archive-postgres is not installed "
                + "(neither in \(folder.path) nor in \(parent)/lib/ps-tools)\n")
        #expect(result.stdout.isEmpty)
    }

    /// The helper beside ps-search (here a script that notes its arguments and input, then runs
    /// the real one): the same hits as ps-search in the build folder, whose helper is beside it;
    /// the password only on the helper's standard input; its failures are ps-search's.
    @Test func theHelperBesideItSearchesPostgres() throws {
        let server = try PostgresTestServer.require()
        let db = try server.newDatabase()
        let records = [
            ArchiveTests.message("m1", "When is the launch date?"),
            ArchiveTests.message("m2", "The launch moved to March", role: "assistant"),
        ]
        #expect(try Run.command("ps-archive", ["--db", db], stdin: ArchiveTests.lines(records)).status == 0)
        let copy = try psSearchOfItsOwn()
        let helper = folder.appendingPathComponent("ps-archive-postgres")
        try Data("""
            #!/bin/sh
            printf '%s\\n' "$@" > '\(folder.path)/arguments'
            tee '\(folder.path)/request' | exec '\(Executables.url("ps-archive-postgres").path)' "$@"

            """.utf8).write(to: helper)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: helper.path)
        let expected = try Run.command("ps-search", ["--db", db, "launch"])
        #expect(expected.status == 0, "\(expected.stderrText)")
        #expect(expected.stdoutLines.count == 2)
        let result = try runWritten(copy.path, ["--db", db, "launch"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText == expected.stdoutText)
        let arguments = try String(contentsOf: folder.appendingPathComponent("arguments"), encoding: .utf8)
        #expect(arguments == "--serve-search\n")
        let request = try String(contentsOf: folder.appendingPathComponent("request"), encoding: .utf8)
        #expect(request.contains(server.password) && request.hasSuffix("\n"))

        let missing = try runWritten(copy.path, ["--db", server.url("no_such_database"), "launch"],
                                      environment: ["PATH": "/usr/bin:/bin"])
        #expect(missing.status == 6)
        #expect(missing.stderrText.hasPrefix("ps-search: postgresql://\(PostgresTestServer.user)@127.0.0.1:\(server.port)/no_such_database: "))
        #expect(missing.stderrText.split(separator: "\n").count == 1 && !missing.stderrText.contains(server.password))
    }
}
