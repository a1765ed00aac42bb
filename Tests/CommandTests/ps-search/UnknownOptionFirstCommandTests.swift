import Foundation
import Testing
import TestSupport

/// `ps-search --bogus` names the unknown option, not the query it also lacks (exit 2).
@Suite struct UnknownOptionFirstCommandTests {
    @Test func anUnknownOptionIsReportedBeforeTheMissingQuery() throws {
        let bogus = try Run.command("ps-search", ["--bogus"], timeout: 30)
        #expect(bogus.status == 2)
        #expect(bogus.stderrText.hasPrefix("ps-search: unknown option '--bogus'\nUsage: ps-search "))
        let none = try Run.command("ps-search", [], timeout: 30)
        #expect(none.status == 2)
        #expect(none.stderrText.hasPrefix("ps-search: missing expected argument '<query>'\n"))
    }
}
