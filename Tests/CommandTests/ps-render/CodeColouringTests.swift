import Foundation
import Testing
import TestSupport

/// Code is coloured by the highlighter (libCSourceHighlight.so, with GNU source-highlight) where
/// colour is on, and left plain elsewhere: in a pipe, with NO_COLOR, or when the highlighter is
/// missing. (That the highlighter is loaded only for colour is checked by bench/run.)
@Suite struct CodeColouringTests {
    static let message = HighlightTerminalTests.message

    @Test func aRenderWithoutColourHasNoEscapes() throws {
        for environment in [[:], ["NO_COLOR": "1"], ["CLICOLOR_FORCE": "1", "NO_COLOR": "1"]] {
            let result = try Run.command("ps-render", [], stdin: Self.message, environment: environment)
            #expect(result.status == 0)
            #expect(result.stdoutText.contains("def f():"), "\(environment): \(result.stdoutText)")
            #expect(!result.stdout.contains(0x1B), "\(environment)")
        }
    }

    @Test func colourOnColoursCode() throws {
        let result = try Run.command("ps-render", ["--width", "40"], stdin: Self.message, environment: ["CLICOLOR_FORCE": "1"])
        #expect(result.status == 0)
        #expect(result.stdoutText.contains("\u{1B}[35mdef\u{1B}[0m \u{1B}[34mf\u{1B}[0m():\n"))
    }

    /// The highlighter is C++ and needs no Swift runtime: it never loads the toolchain's
    /// libswiftCore.so, a second runtime beside a command's own, found through a path into the
    /// toolchain that an installed copy cannot count on, and has none linked in either (its
    /// metadata sections, swift5_*, would show it: code that ps-render held in memory).
    @Test func theHighlighterNeedsNoSwiftRuntimeFromTheToolchain() throws {
        let library = Executables.url("ps-render").deletingLastPathComponent().appendingPathComponent("libCSourceHighlight.so")
        let dynamic = try Run.command("/usr/bin/readelf", ["-d", library.path])
        #expect(dynamic.status == 0, "\(dynamic.stderrText)")
        #expect(dynamic.stdoutText.contains("libsource-highlight.so.4"), "\(dynamic.stdoutText)")
        #expect(!dynamic.stdoutText.contains("libswift"), "\(dynamic.stdoutText)")
        #expect(!dynamic.stdoutText.contains("/usr/lib/swift"), "a run path into the toolchain: \(dynamic.stdoutText)")
        let sections = try Run.command("/usr/bin/readelf", ["-S", "-W", library.path])
        #expect(sections.status == 0 && sections.stdoutText.contains(".text"), "\(sections.stderrText)")
        #expect(!sections.stdoutText.contains("swift5_"), "a Swift runtime linked in: \(sections.stdoutText)")
    }

    /// On a terminal (a pseudo-terminal from Python's pty.fork) code is coloured; on the same
    /// terminal with NO_COLOR it is not.
    @Test func onATerminalCodeIsColouredUnlessNoColor() throws {
        for noColor in [false, true] {
            var environment = ["TERM": "xterm-256color"]
            if noColor { environment["NO_COLOR"] = "1" }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ps-colour-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let input = folder.appendingPathComponent("message.ndjson")
            try Self.message.write(to: input)
            let result = try Run.command("/usr/bin/env", ["python3", "-c", Self.onATerminal,
                                                          Executables.url("ps-render").path, "--width", "40", input.path],
                                         environment: environment, timeout: 30)
            #expect(result.status == 0, "\(result.stderrText)")
            #expect(result.stdoutText.contains("def"), "\(result.stdoutText)")
            #expect(result.stdoutText.contains("\u{1B}[35mdef\u{1B}[0m \u{1B}[34mf\u{1B}[0m():") == !noColor, "\(result.stdoutText)")
        }
    }

    /// Runs argv[1:] on a pseudo-terminal (its stdin, stdout and stderr), writes what it wrote,
    /// and exits as it did.
    static let onATerminal = """
        import os, pty, sys
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(sys.argv[1], sys.argv[1:])
        out = b""
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            out += data
        _, status = os.waitpid(pid, 0)
        sys.stdout.buffer.write(out)
        sys.exit(os.waitstatus_to_exitcode(status))
        """

    /// A ps-render with no highlighter beside it (nor in ../lib/ps-tools/), or a file of that name
    /// that is not one: code is plain yellow, as for an unknown language, with no error.
    @Test func aMissingOrBrokenHighlighterLeavesCodePlain() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ps-highlighter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let render = folder.appendingPathComponent("ps-render")
        // Copied by cp: a file this process had open for writing could be inherited by a child
        // that another test starts meanwhile, and exec would fail (ETXTBSY).
        let copied = try Run.command("/bin/cp", [Executables.url("ps-render").path, render.path])
        try #require(copied.status == 0, "\(copied.stderrText)")
        try Executables.linkSharedLibrary(into: folder)
        let library = folder.appendingPathComponent("libCSourceHighlight.so")
        let cases: [(String, () throws -> Void)] = [
            ("missing", {}),
            ("not a library", { try Data("not a shared object\n".utf8).write(to: library) }),
            ("a library without its functions", {
                try? FileManager.default.removeItem(at: library)
                try FileManager.default.createSymbolicLink(atPath: library.path, withDestinationPath: "/lib/x86_64-linux-gnu/libm.so.6")
            }),
        ]
        for (name, prepare) in cases {
            try prepare()
            let result = try Run.command(render.path, ["--width", "40"], stdin: Self.message, environment: ["CLICOLOR_FORCE": "1"])
            #expect(result.status == 0, "\(name)")
            #expect(result.stderr.isEmpty, "\(name): \(result.stderrText)")
            #expect(result.stdoutText.contains("\u{1B}[33mdef f():\u{1B}[0m\n"), "\(name): \(result.stdoutText)")
        }
        // The real one beside it colours the same render.
        try FileManager.default.removeItem(at: library)
        try FileManager.default.copyItem(at: Executables.url("libCSourceHighlight.so"), to: library)
        let coloured = try Run.command(render.path, ["--width", "40"], stdin: Self.message, environment: ["CLICOLOR_FORCE": "1"])
        #expect(coloured.stdoutText.contains("\u{1B}[35mdef\u{1B}[0m"), "\(coloured.stderrText)")
    }
}

