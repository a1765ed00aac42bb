import Foundation
import Testing
import TestSupport

/// A whole message given to ps-render is one NDJSON line as long as its text, and a streamed
/// message ends with two such lines repeating the text that streamed: either way, memory stays
/// within the budget of 8 times the text.
@Suite struct RenderRecordMemoryTests {
    @Test func aLongMessageRecordStaysWithinTheMemoryBudget() throws {
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
        let held = long.maxRSSKiB - empty.maxRSSKiB
        #expect(held < bytes / 1024 * 8, "\(held) KiB held for a \(bytes / 1024) KiB line")
    }

    /// ps-parts' records of a streamed message: its text in `deltas` deltas of `fill`, then the
    /// part-update and the message-end that repeat it whole (each a line as long as the text).
    static func streamedMessage(fill: String, deltas: Int) -> String {
        func encoded(_ text: String) -> String {
            String(data: try! JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed]), encoding: .utf8)!
                .dropFirst().dropLast().description
        }
        let text = String(repeating: fill, count: deltas)
        var lines = [
            #"{"type":"message-start","messageId":"m1","role":"assistant"}"#,
            #"{"type":"part-start","index":0,"part":{"type":"text","text":"","state":"streaming"}}"#,
        ]
        let delta = #"{"type":"part-delta","index":0,"delta":\#(encoded(fill))}"#
        lines += Array(repeating: delta, count: deltas)
        lines.append(#"{"type":"part-update","index":0,"part":{"type":"text","text":\#(encoded(text)),"state":"done"}}"#)
        lines.append(#"{"type":"message-end","message":{"id":"m1","role":"assistant","parts":[{"type":"text","text":\#(encoded(text)),"state":"done"}]}}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The rendered formats, and the reply text alone (whose deltas were once appended to a copy
    /// of all the text before them: quadratic time).
    @Test(arguments: ["plain", "text"])
    func aStreamedMessageStaysWithinTheMemoryBudget(format: String) throws {
        let fill = "A cat sat on the mat, said the \"first\" line.\n\n"
        let deltas = (4 << 20) / fill.utf8.count
        let folder = NSTemporaryDirectory() + "ps-render-memory-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func measure(_ deltas: Int) throws -> MemoryCapTests.Measured {
            let path = folder + "/parts-\(deltas).ndjson"
            try Self.streamedMessage(fill: fill, deltas: deltas).write(toFile: path, atomically: false, encoding: .utf8)
            return try MemoryCapTests.measure(["ps-render", "--format", format, "--width", "80", path], bytes: 0)
        }
        let short = try measure(1)
        let long = try measure(deltas)
        #expect(long.status == 0, "\(long.stderr)")
        #expect(long.stdout.contains("A cat sat on the mat, said the \"first\" line.\n\nA cat sat"), "\(long.stdout.prefix(300))")
        #expect(long.stdoutBytes > deltas * fill.utf8.count * 9 / 10)
        // The budget: 8 times the text.
        let held = long.maxRSSKiB - short.maxRSSKiB
        let text = deltas * fill.utf8.count / 1024
        #expect(held < text * 8, "\(held) KiB held for a \(text) KiB text")
    }
}
