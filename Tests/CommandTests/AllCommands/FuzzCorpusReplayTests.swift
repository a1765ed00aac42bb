import Foundation
import PSCore
import Testing
import TestSupport

/// The fuzz corpora of ps-sse and ps-parts (fuzz/sse, fuzz/parts): every input that once broke a
/// filter, and the seeds, must end with a status the filter documents for its input and write
/// only lines the next command can read.
@Suite struct FuzzCorpusReplayTests {
    static let statuses: Set<Int32> = [0, 3, 10]

    static func corpus(_ target: String) throws -> [(name: String, data: Data)] {
        let folder = Executables.packageRoot.appendingPathComponent("Tests/CommandTests/FuzzCorpus/\(target)")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map {
            ($0, try Data(contentsOf: folder.appendingPathComponent($0)))
        }
    }

    /// The lines of `output` that are not JSON objects (with `firstKeys` first, in order).
    static func unreadableLines(_ output: Data, firstKeys: [String] = []) -> [String] {
        var bad: [String] = []
        for line in output.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            let value = try? JSON.parse(bytes: Array(line))
            let keys = value?.objectValue?.keys.prefix(firstKeys.count).map { $0 } ?? []
            if value?.objectValue == nil || keys != firstKeys { bad.append(String(decoding: line.prefix(120), as: UTF8.self)) }
        }
        if !output.isEmpty && output.last != 0x0A { bad.append("(no line end at the end)") }
        return bad
    }

    @Test func sseCorpusGivesEventRecordsInEveryMode() throws {
        let files = try Self.corpus("sse")
        #expect(files.count >= 5)
        for (name, data) in files {
            for mode in [[], ["--raw"], ["--format", "sse"], ["--format", "data-stream"]] {
                let result = try Run.command("ps-sse", mode, stdin: data, timeout: 60)
                #expect(Self.statuses.contains(result.status), "\(name) \(mode): status \(result.status) \(result.stderrText.prefix(300))")
                let bad = Self.unreadableLines(result.stdout, firstKeys: ["event", "id", "data"])
                #expect(bad.isEmpty, "\(name) \(mode): \(bad.prefix(3))")
            }
            let piped = try Run.shell("ps-sse | ps-parts; echo \"${PIPESTATUS[*]}\" >&2", stdin: data, timeout: 60)
            let statuses = piped.stderrText.split(separator: "\n").last?.split(separator: " ").compactMap { Int32($0) } ?? []
            #expect(statuses.count == 2 && statuses.allSatisfy(Self.statuses.contains), "\(name) through ps-parts: \(piped.stderrText.suffix(300))")
            #expect(Self.unreadableLines(piped.stdout).isEmpty, "\(name) through ps-parts")
        }
    }

    @Test func partsCorpusGivesRecordsAndMessages() throws {
        let files = try Self.corpus("parts")
        #expect(files.count >= 5)
        for (name, data) in files {
            for mode in [[], ["--final"]] {
                let result = try Run.command("ps-parts", mode, stdin: data, timeout: 60)
                #expect(Self.statuses.contains(result.status), "\(name) \(mode): status \(result.status) \(result.stderrText.prefix(300))")
                let bad = Self.unreadableLines(result.stdout)
                #expect(bad.isEmpty, "\(name) \(mode): \(bad.prefix(3))")
            }
        }
    }
}
