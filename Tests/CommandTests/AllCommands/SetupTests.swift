import Foundation
import Testing
import TestSupport

/// scripts/setup installs what building and running need (and bash-completion);
/// `scripts/setup --test` adds what only the tests use. Read from the script itself
/// (`--list`), so the lists are the ones it installs.
@Suite struct SetupTests {
    static func listed(_ arguments: [String]) throws -> [String] {
        let script = Executables.packageRoot.appendingPathComponent("scripts/setup")
        let result = try Run.run(script, ["--list"] + arguments, stdin: nil, environment: Run.environment(), timeout: 60)
        #expect(result.status == 0, "\(result.stderrText)")
        return result.stdoutLines
    }

    /// The Debian packages the package manifests name as their system libraries' providers.
    static func manifestProviders() throws -> [String] {
        try ["Package.swift", "kit/Package.swift"].flatMap { file -> [String] in
            let text = try String(contentsOf: Executables.packageRoot.appendingPathComponent(file), encoding: .utf8)
            return text.components(separatedBy: ".apt([").dropFirst().flatMap { rest in
                rest.prefix { $0 != "]" }.split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                }
            }
        }
    }

    @Test func theMainListHoldsTheBuildsLibrariesAndBashCompletionAndNoTestTool() throws {
        let main = try Self.listed([])
        #expect(main.contains("bash-completion"))
        let providers = try Self.manifestProviders()
        #expect(providers.contains("libjansson-dev"), "\(providers)")
        for package in providers + ["git", "pkg-config", "binutils", "make"] {
            #expect(main.contains(package), "scripts/setup does not install \(package)")
        }
        for package in ["postgresql", "zsh", "fish", "tinyproxy", "mandoc", "json-schema-test-suite", "python3-pyte"] {
            #expect(!main.contains(package), "\(package) is only for the tests: scripts/setup --test")
        }
    }

    /// Every program a test runs (or the Debian files it reads) comes from a package of
    /// `scripts/setup --test`, which holds the main list too.
    @Test func theTestListHoldsEveryProgramTheTestsRun() throws {
        let main = try Self.listed([])
        let tests = try Self.listed(["--test"])
        #expect(Set(main).isSubset(of: Set(tests)))
        let used = [
            "/usr/bin/tinyproxy": "tinyproxy", "zsh": "zsh", "fish": "fish", "mandoc": "mandoc", "man": "man-db",
            "pg_ctl, initdb": "postgresql", "/usr/bin/sqlite3": "sqlite3", "/usr/bin/curl": "curl", "git": "git",
            "jq": "jq", "/usr/bin/python3": "python3", "pyte": "python3-pyte", "python3 -m venv": "python3-venv",
            "/usr/share/json-schema-test-suite": "json-schema-test-suite", "nm, readelf": "binutils",
        ]
        for (program, package) in used {
            #expect(tests.contains(package), "\(program): scripts/setup --test does not install \(package)")
        }
    }

    @Test func helpAndAWrongArgument() throws {
        let script = Executables.packageRoot.appendingPathComponent("scripts/setup")
        let help = try Run.run(script, ["--help"], stdin: nil, environment: Run.environment(), timeout: 60)
        #expect(help.status == 0)
        #expect(help.stdoutText.hasPrefix("usage: scripts/setup [--test]"), "\(help.stdoutText)")
        #expect(help.stdoutText.contains("Swift 6.3"))
        let wrong = try Run.run(script, ["--tests"], stdin: nil, environment: Run.environment(), timeout: 60)
        #expect(wrong.status == 2)
        #expect(wrong.stderrText.hasPrefix("setup: unknown argument '--tests'\n"), "\(wrong.stderrText)")
    }
}
