import Foundation
import Testing
import TestSupport

/// ps-archive does not link PostgresNIO: for --db postgresql://… it replaces itself (execv)
/// with ps-archive-postgres, found beside it or in ../lib/ps-tools, the same argv, environment
/// and descriptors; an SQLite archive never runs it. The PostgreSQL behaviour itself is
/// ArchiveTests', through this exec.
@Suite final class ArchivePostgresHelperTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ps-archive-helper-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// ps-archive in this test's folder: a hard link where the file system allows, else a copy.
    func psArchiveOfItsOwn() throws -> String {
        let copy = folder.appendingPathComponent("ps-archive")
        if link(Executables.url("ps-archive").path, copy.path) != 0 {
            try FileManager.default.copyItem(at: Executables.url("ps-archive"), to: copy)
        }
        try Executables.linkSharedLibrary(into: folder)
        return copy.path
    }

    /// A stand-in helper beside the copy: it notes its pid, arguments, environment and input,
    /// answers on standard output and error, and exits 7.
    func standInHelper() throws {
        let helper = folder.appendingPathComponent("ps-archive-postgres")
        try Data("""
            #!/bin/sh
            echo $$ > '\(folder.path)/pid'
            printf '%s\\n' "$@" > '\(folder.path)/arguments'
            printf '%s' "$PS_HELPER_TEST" > '\(folder.path)/environment'
            cat > '\(folder.path)/input'
            echo 'out from the helper'
            echo 'err from the helper' >&2
            exit 7

            """.utf8).write(to: helper)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: helper.path)
    }

    /// Runs a program this test wrote; "Text file busy" (another test's fork holding it for a
    /// moment before its exec) is tried again.
    func runWritten(_ script: String, stdin: Data? = nil, environment: [String: String]) throws -> ProcessResult {
        for _ in 0..<50 {
            let result = try Run.shell(script, stdin: stdin, environment: environment)
            guard result.stderrText.contains("Text file busy") else { return result }
            usleep(100_000)
        }
        return try Run.shell(script, stdin: stdin, environment: environment)
    }

    @Test func psArchiveLinksNoNIOAndTheHelperDoes() throws {
        let archive = try ArchiveSearchHelperTests.symbols("ps-archive")
        #expect(archive.contains("9PSArchive"), "the archive code is there (the check sees Swift symbols)")
        #expect(!archive.contains("7NIOCore") && !archive.contains("11PostgresNIO") && !archive.contains("17PSArchivePostgres"))
        let helper = try ArchiveSearchHelperTests.symbols("ps-archive-postgres")
        #expect(helper.contains("11PostgresNIO") && helper.contains("16PSArchiveCommand"))
        let libraries = try Run.command("/usr/bin/ldd", [Executables.url("ps-archive").path])
        #expect(libraries.status == 0 && libraries.stdoutText.contains("libjansson"), "\(libraries.stdoutText)")
        #expect(archive.contains(" T sqlite3_open_v2") && !libraries.stdoutText.contains("libsqlite3"), "SQLite is linked in")
        for library in ["libFoundation.so", "libFoundationInternationalization", "ICU"] {
            #expect(!libraries.stdoutText.contains(library), "ps-archive loads \(library)")
        }
    }

    /// A postgresql:// archive: the process becomes the helper (the same pid), with the same
    /// arguments, environment, input, output and exit status, for every verb. An SQLite archive
    /// beside the same stand-in never runs it.
    @Test func aPostgresRunBecomesTheHelperAndAnSQLiteOneNeverRunsIt() throws {
        let copy = try psArchiveOfItsOwn()
        try standInHelper()
        let url = "postgresql://u:secret-42@127.0.0.1:1/x"
        // In the background to learn its pid (so its input from a copy of the shell's: a
        // background job's own would be /dev/null).
        for arguments in [["--db", url, "--source", "work"], ["--stats", "--db", url, "--json"], ["--db=\(url)", "--export"]] {
            let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
            let result = try runWritten(#"exec 3<&0; "$ARCHIVE" \#(quoted) <&3 & echo "$!" > "$FOLDER/started"; wait "$!""#,
                                        stdin: Data("a record\n".utf8),
                                        environment: ["ARCHIVE": copy, "FOLDER": folder.path, "PS_HELPER_TEST": "kept"])
            #expect(result.status == 7, "\(arguments): \(result.stderrText)")
            #expect(result.stdoutText == "out from the helper\n")
            #expect(result.stderrText == "err from the helper\n")
            let noted = { (name: String) in try String(contentsOf: self.folder.appendingPathComponent(name), encoding: .utf8) }
            #expect(try noted("pid") == noted("started"), "the helper runs in ps-archive's process")
            #expect(try noted("arguments") == arguments.joined(separator: "\n") + "\n")
            #expect(try noted("environment") == "kept")
            #expect(try noted("input") == "a record\n")
        }

        try FileManager.default.removeItem(at: folder.appendingPathComponent("pid"))
        let sqlite = folder.appendingPathComponent("archive.sqlite").path
        let ingest = try runWritten(#""$ARCHIVE" --db "$DB" && "$ARCHIVE" --db "$DB" --stats"#,
                                    stdin: ArchiveTests.lines(ArchiveTests.sample),
                                    environment: ["ARCHIVE": copy, "DB": sqlite])
        #expect(ingest.status == 0, "\(ingest.stderrText)")
        #expect(ingest.stdoutText.contains(#""messages":3"#), "\(ingest.stdoutText)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("pid").path), "the helper ran")
    }

    /// No helper beside ps-archive nor in ../lib/ps-tools (and the build folder's on PATH, which
    /// is not searched): one line, exit 1, before anything is read, without the password; an
    /// SQLite archive is unaffected.
    @Test func withoutTheHelperAPostgresArchiveIsExit1() throws {
        let copy = try psArchiveOfItsOwn()
        let parent = folder.deletingLastPathComponent().path
        let expected = "ps-archive: cannot open a PostgreSQL archive: ps-archive-postgres is not installed "
            + "(neither in \(folder.path) nor in \(parent)/lib/ps-tools)\n"
        for arguments in [["--db", "postgresql://u:secret-42@127.0.0.1:1/x"], ["--db", "postgres://u:secret-42@h/x", "--stats"]] {
            let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
            let result = try runWritten(#""$ARCHIVE" \#(quoted)"#, stdin: Data("not read\n".utf8),
                                        environment: ["ARCHIVE": copy, "PATH": Executables.directory.path + ":/usr/bin:/bin"])
            #expect(result.status == 1)
            #expect(result.stderrText == expected)
            #expect(result.stdout.isEmpty)
        }
        let sqlite = folder.appendingPathComponent("archive.sqlite").path
        let ingest = try runWritten(#""$ARCHIVE" --db "$DB""#, stdin: ArchiveTests.lines(ArchiveTests.sample),
                                    environment: ["ARCHIVE": copy, "DB": sqlite])
        #expect(ingest.status == 0, "\(ingest.stderrText)")
    }

    /// Run by its own name it is a helper, not ps-archive: --help (a glance pointing at its page)
    /// and --version answer, and ps-archive's arguments (or none) are exit 2 pointing at ps-archive.
    @Test func theHelperRunByHandAnswersHelpAndRefusesTheRest() throws {
        let help = try Run.command("ps-archive-postgres", ["--help"])
        #expect(help.status == 0 && help.stdoutText.contains("internal helper") && help.stdoutText.contains("--serve-search"))
        #expect(help.stdoutText.hasSuffix("The description, environment and exit status: man ps-archive-postgres\n"))
        let version = try Run.command("ps-archive-postgres", ["--version"])
        #expect(version.status == 0 && version.stdoutText.hasPrefix("ps-archive-postgres "))
        let bare = try Run.command("ps-archive-postgres", [], stdin: Data())
        #expect(bare.status == 2)
        #expect(bare.stderrText == "ps-archive-postgres: an internal helper of ps-archive and ps-search: "
                + "run ps-archive --db postgresql://… instead\n")
        let wrong = try Run.command("ps-archive-postgres", ["--db", "postgresql://u@h/x", "--stats"])
        #expect(wrong.status == 2)
        #expect(wrong.stderrText.hasPrefix("ps-archive-postgres: unknown option '--db'\n"), "\(wrong.stderrText)")
    }
}
