import Foundation
import Testing
import TestSupport

/// A whole message given to ps-render is one NDJSON line as long as its text. Its peak memory is
/// the line and the text read from it once (RecordScanner: no jansson tree, no second String),
/// and the line is let go before the message is rendered.
@Suite struct RenderRecordMemoryTests {
    @Test func aLongMessageRecordIsHeldAboutTwiceAtMost() throws {
        let fill = #"A cat sat on the mat, said the \"first\" line.\n\n"#
        let bytes = (4 << 20) / fill.utf8.count * fill.utf8.count
        let prefix = #"{"id":"m1","role":"assistant","parts":[{"type":"text","text":""#
        func measure(_ bytes: Int) throws -> MemoryCapTests.Measured {
            // maxrss.py reads backslash escapes in its arguments: each backslash is written twice.
            try MemoryCapTests.measure(
                ["ps-render", "--format", "plain", "--width", "80"], prefix: prefix,
                fill: fill.replacingOccurrences(of: "\\", with: "\\\\"), bytes: bytes,
                suffix: #""}]}\#(MemoryCapTests.escapedLF)"#)
        }
        let empty = try measure(0)
        let long = try measure(bytes)
        #expect(long.status == 0, "\(long.stderr)")
        #expect(long.stdout.contains("A cat sat on the mat, said the \"first\" line.\n\nA cat sat"), "\(long.stdout.prefix(300))")
        #expect(long.stdoutBytes > bytes * 9 / 10)
        // jansson's tree beside the line and the text took 2.9 times the line (release build).
        let held = long.maxRSSKiB - empty.maxRSSKiB
        #expect(held < bytes / 1024 * 12 / 5, "\(held) KiB held for a \(bytes / 1024) KiB line")
    }
}
