import Foundation
import Testing
import TestSupport

/// `make install PREFIX=…` puts every binary, page and completion script in its standard place
/// under PREFIX, with the Swift runtime's shared objects the binaries need in lib/ps-tools, and
/// `make uninstall PREFIX=…` takes every one away and names what it leaves. The test installs
/// the binaries already built (`make install-files BUILD=…`) into a scratch PREFIX. (The
/// packages, and installed commands that run with no toolchain: scripts/check-deb.)
@Suite struct InstallTests {
    static let commands = HelpAndManualTests.commands

    @Test func installPutsEverythingInPlaceAndUninstallLeavesNothing() throws {
        let prefix = Scratch.home + "/prefix-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let root = Executables.packageRoot.path
        let build = Executables.directory.path
        let install = try Run.shell(#"make -s -C "$ROOT" install-files PREFIX="$PREFIX" BUILD="$BUILD""#,
                                    environment: ["ROOT": root, "PREFIX": prefix, "BUILD": build], timeout: 120)
        #expect(install.status == 0, "\(install.stderrText)")

        var expected = ["bin/ps-tools_ps-local-server.resources/model-catalog.json", "share/man/man5/ps-ndjson.5",
                        "share/man/man7/ps-tools.7", "lib/ps-tools/libCSourceHighlight.so",
                        "lib/ps-tools/libPSKit.so"]
        for command in Self.commands {
            expected += ["bin/\(command)", "share/man/man1/\(command).1", "share/bash-completion/completions/\(command)",
                         "share/zsh/site-functions/_\(command)", "share/fish/vendor_completions.d/\(command).fish"]
        }
        for helper in HelpAndManualTests.helpers {
            expected += ["lib/ps-tools/\(helper)", "share/man/man1/\(helper).1", "share/bash-completion/completions/\(helper)",
                         "share/zsh/site-functions/_\(helper)", "share/fish/vendor_completions.d/\(helper).fish"]
        }
        let installed = try Self.files(under: prefix)
        // The Swift runtime the binaries link, copied from the toolchain.
        let runtime = installed.filter { $0.hasPrefix("lib/ps-tools/lib") && !expected.contains($0) }
        #expect(runtime.contains("lib/ps-tools/libswiftCore.so"), "\(runtime.sorted())")
        #expect(runtime.allSatisfy { FileManager.default.fileExists(atPath: Self.toolchainLibraries + "/" + $0.dropFirst(13)) },
                "\(runtime.sorted())")
        #expect(installed == Set(expected).union(runtime))
        for command in Self.commands {
            #expect(FileManager.default.isExecutableFile(atPath: "\(prefix)/bin/\(command)"), "\(command)")
        }
        // Installed binaries are stripped (the built ones keep their symbols for backtraces).
        for (path, symbols) in [("\(build)/ps-sse", true), ("\(prefix)/bin/ps-sse", false),
                                ("\(prefix)/bin/ps-archive-postgres", false),
                                ("\(prefix)/lib/ps-tools/libswiftCore.so", false)] {
            let sections = try Run.shell(#"readelf -S -W "$F""#, environment: ["F": path])
            #expect(sections.status == 0 && sections.stdoutText.contains(" .symtab ") == symbols, "\(path)")
        }

        // The installed commands run from there, and man finds the pages under PREFIX. A debug
        // build's commands have no RPATH into lib/ps-tools (scripts/build-release gives a release
        // build's one, and scripts/check-deb runs those installed with no LD_LIBRARY_PATH): the
        // loader is told where libPSKit.so is.
        let loader = ["LD_LIBRARY_PATH": prefix + "/lib/ps-tools"]
        let version = try Run.command("\(prefix)/bin/ps-send", ["--version"], environment: loader)
        #expect(version.status == 0 && version.stdoutText.hasPrefix("ps-send "))
        // The installed ps-render opens the highlighter from PREFIX/lib/ps-tools: code is coloured.
        let rendered = try Run.command("\(prefix)/bin/ps-render", ["--width", "40"], stdin: HighlightTerminalTests.message,
                                       environment: loader.merging(["CLICOLOR_FORCE": "1"]) { $1 })
        #expect(rendered.stdoutText.contains("\u{1B}[35mdef\u{1B}[0m"), "\(rendered.stderrText)")
        // The installed ps-archive-postgres runs from PREFIX/bin: a PostgreSQL server that is not
        // there is exit 9 (it tried), for storing and searching.
        let closedPort = try FreePort.take()
        for arguments in [["--stats"], ["search", "launch"]] {
            let postgres = try Run.command("\(prefix)/bin/ps-archive-postgres", arguments + ["--db", "postgresql://u@127.0.0.1:\(closedPort)/x"],
                                           environment: loader.merging(["PATH": "/usr/bin:/bin"]) { $1 })
            #expect(postgres.status == 9, "\(arguments): \(postgres.stderrText)")
        }
        let catalog = try Run.shell(#""$PREFIX/bin/ps-local-server" --help >/dev/null && MANPATH="$PREFIX/share/man" man -w ps-ndjson"#,
                                    environment: loader.merging(["PREFIX": prefix]) { $1 })
        #expect(catalog.stdoutText.hasPrefix(prefix + "/share/man/man5/ps-ndjson.5"), "\(catalog.stderrText)")

        // Someone else's page in a folder we share: it and its folder stay.
        let other = prefix + "/share/man/man1/other.1"
        #expect(FileManager.default.createFile(atPath: other, contents: Data("x".utf8)))
        let uninstall = try Run.shell(#"make -s -C "$ROOT" uninstall PREFIX="$PREFIX""#,
                                      environment: ["ROOT": root, "PREFIX": prefix], timeout: 60)
        #expect(uninstall.status == 0, "\(uninstall.stderrText)")
        // It names what it leaves: configuration and credentials, the archive, state.
        for folder in [".config/ps-tools", ".local/share/ps-tools", ".local/state/ps-tools"] {
            #expect(uninstall.stdoutText.contains(Scratch.home + "/" + folder), "\(uninstall.stdoutText)")
        }
        #expect(try Self.files(under: prefix) == ["share/man/man1/other.1"])
        // The folders install made are gone once empty; PREFIX itself stays.
        let left = try FileManager.default.subpathsOfDirectory(atPath: prefix).sorted()
        #expect(left == ["share", "share/man", "share/man/man1", "share/man/man1/other.1"])
    }

    /// The toolchain's folder of the Swift runtime's shared objects (beside `swift`, on PATH).
    static let toolchainLibraries: String = {
        let swift = (try? Run.shell("readlink -f \"$(command -v swift)\"").stdoutText) ?? ""
        return URL(fileURLWithPath: swift.trimmingCharacters(in: .whitespacesAndNewlines))
            .deletingLastPathComponent().deletingLastPathComponent().path + "/lib/swift/linux"
    }()

    /// Every file (not folder) under `folder`, relative to it.
    static func files(under folder: String) throws -> Set<String> {
        var files: Set<String> = []
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return files }
        while let path = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
                files.insert(path)
            }
        }
        return files
    }
}
