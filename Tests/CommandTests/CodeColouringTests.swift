import Foundation
import Testing
import TestSupport

/// The highlighter (libCSourceHighlight.so, with GNU source-highlight, libboost_regex and ICU) is
/// opened the first time a code block is coloured, never otherwise: a render in a pipe, with
/// NO_COLOR, or a network command's --version starts without it. Read from the dynamic loader's
/// own account of the files it opens (LD_DEBUG=files, on stderr).
@Suite struct HighlighterLoadingTests {
    static let message = HighlightTerminalTests.message
    static let highlighterFiles = ["libCSourceHighlight.so", "libsource-highlight.so.4", "libboost_regex", "libicuuc"]

    /// The files the dynamic loader opened for a run made with LD_DEBUG=files.
    static func loadedFiles(_ result: ProcessResult) -> [String] { LibcurlLoadingTests.loadedFiles(result) }

    /// Whether the loader's account names one of the highlighter's files (by their last path part).
    static func loadsHighlighter(_ result: ProcessResult) -> Bool {
        loadedFiles(result).contains { file in highlighterFiles.contains { file.split(separator: "/").last?.hasPrefix($0) == true } }
    }

    @Test func aRenderWithoutColourNeverLoadsTheHighlighter() throws {
        for environment in [[:], ["NO_COLOR": "1"], ["CLICOLOR_FORCE": "1", "NO_COLOR": "1"]] {
            let result = try Run.command("ps-render", [], stdin: Self.message, environment: environment.merging(["LD_DEBUG": "files"]) { $1 })
            #expect(result.status == 0)
            #expect(Self.loadedFiles(result).contains("libjansson.so.4"), "the loader's account is missing")
            #expect(!Self.loadsHighlighter(result), "\(environment): \(Self.loadedFiles(result))")
            #expect(!result.stdout.contains(0x1B))
        }
        for command in ["ps-render", "ps-send", "ps-search", "ps-agents", "ps-summary"] {
            let result = try Run.command(command, ["--version"], environment: ["LD_DEBUG": "files"])
            #expect(result.status == 0)
            #expect(!Self.loadsHighlighter(result), "\(command) --version")
        }
    }

    @Test func colouredCodeLoadsTheHighlighter() throws {
        let result = try Run.command("ps-render", ["--width", "40"], stdin: Self.message,
                                     environment: ["CLICOLOR_FORCE": "1", "LD_DEBUG": "files"])
        #expect(result.status == 0)
        let files = Self.loadedFiles(result)
        #expect(files.contains { $0.hasSuffix("/libCSourceHighlight.so") }, "\(files)")
        #expect(files.contains { $0.hasSuffix("libsource-highlight.so.4") }, "\(files)")
        #expect(result.stdoutText.contains("\u{1B}[35mdef\u{1B}[0m \u{1B}[34mf\u{1B}[0m():\n"))
    }

    /// The highlighter is C++ and needs no Swift runtime: it never loads the toolchain's
    /// libswiftCore.so, a second runtime beside a command's own, found through a path into the
    /// toolchain that an installed copy cannot count on, and has none linked in either (its
    /// metadata sections, swift5_*, would show it: 3.8 MB of code that ps-render held in memory).
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

    /// On a terminal (a pseudo-terminal from Python's pty.fork) code is coloured and the highlighter is
    /// loaded; on the same terminal with NO_COLOR it is not. The loader's account goes to files
    /// (LD_DEBUG_OUTPUT), one per process, since stderr is the terminal.
    @Test func onATerminalTheHighlighterIsLoadedOnlyForColour() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ps-highlighter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("message.ndjson")
        try Self.message.write(to: input)
        for noColor in [false, true] {
            let log = folder.appendingPathComponent(noColor ? "nocolor" : "colour")
            try FileManager.default.createDirectory(at: log, withIntermediateDirectories: true)
            var environment = ["RENDER": Executables.url("ps-render").path, "INPUT": input.path, "TERM": "xterm-256color",
                               "LD_DEBUG": "files", "LD_DEBUG_OUTPUT": log.path + "/ld"]
            if noColor { environment["NO_COLOR"] = "1" }
            let result = try Run.command("/usr/bin/env", ["python3", "-c", Self.onATerminal,
                                                          Executables.url("ps-render").path, "--width", "40", input.path],
                                         environment: environment, timeout: 30)
            #expect(result.status == 0, "\(result.stderrText)")
            let accounts = try FileManager.default.contentsOfDirectory(atPath: log.path).map {
                try String(contentsOfFile: log.path + "/" + $0, encoding: .utf8)
            }
            let loaded = accounts.contains { $0.contains("/libCSourceHighlight.so") && $0.contains("libsource-highlight.so.4") }
            let rendered = accounts.contains { $0.contains("libjansson.so.4") }
            #expect(rendered, "no account of ps-render's libraries")
            #expect(loaded == !noColor, "NO_COLOR \(noColor): highlighter loaded \(loaded)")
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

