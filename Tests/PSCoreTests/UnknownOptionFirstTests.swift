import ArgumentParser
import Testing
@testable import PSCore

/// A usage error names the unknown option before a missing argument (the parser's own order is
/// the other way round).
@Suite struct UnknownOptionFirstTests {
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ps-q")
        @Option(help: "A file.") var file: String?
        @Argument(help: "The query.") var query: String
        @Argument(help: "The second word.") var second: String
    }

    /// The problem the usage error names (its first line, without the program's name).
    func problem(_ words: [String]) -> String? {
        do {
            _ = try Search.parseAsRoot(words)
            return nil
        } catch {
            let first = Search.usageErrorLines(for: Search.unknownOption(besides: error, in: words) ?? error).first
            return first.map { String($0.dropFirst(Diagnostics.programName.count + 2)) }
        }
    }

    @Test func anUnknownOptionIsNamedBeforeTheMissingArguments() {
        #expect(problem(["--bogus"]) == "unknown option '--bogus'")
        #expect(problem(["--file", "x", "--bogus", "--"]) == "unknown option '--bogus'")
        #expect(problem(["one", "--bogus"]) == "unknown option '--bogus'")
    }

    @Test func withoutAnUnknownOptionTheMissingArgumentIsNamed() {
        #expect(problem([]) == "missing expected argument '<query>'")
        #expect(problem(["--file", "x", "one"]) == "missing expected argument '<second>'")
        #expect(problem(["--file"])?.hasPrefix("missing value for '--file") == true)
    }
}
