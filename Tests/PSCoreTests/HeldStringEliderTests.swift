import Testing
@testable import PSCore
import TestSupport

/// A long line that repeats a text the reader holds is read without a second copy of it
/// (LineSplitter's `eliding`): the string is compared as its bytes come and left out, and the
/// record read from the line is the one the whole line gives, whatever the chunks, the escapes,
/// or where the string differs from the text.
@Suite struct HeldStringEliderTests {
    struct Delivered {
        var line: [UInt8]
        var elided: [ElidedString]
        var largestBuffer: Int
    }

    /// Feeds `line` (with its newline) in chunks of the given sizes, in turn.
    static func feed(_ line: [UInt8], held: [String], chunks: [Int]) throws -> Delivered {
        var splitter = LineSplitter()
        var delivered: [Delivered] = []
        var start = 0
        var turn = 0
        var largest = 0
        let bytes = line + [0x0A]
        while start < bytes.count {
            let end = min(bytes.count, start + max(1, chunks[turn % chunks.count]))
            turn += 1
            try bytes[start..<end].withUnsafeBytes { chunk in
                try splitter.feed(chunk, eliding: { held }) { line, _, elided in
                    delivered.append(Delivered(line: Array(line), elided: elided, largestBuffer: 0))
                }
            }
            largest = max(largest, splitter.bufferedBytes)
            start = end
        }
        try #require(delivered.count == 1)
        delivered[0].largestBuffer = largest
        return delivered[0]
    }

    static func encoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSON.writeString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A text of every kind of byte a JSON string escapes or not.
    static func text(_ count: Int, seed: UInt64) -> String {
        var random = SplitMix(seed: seed)
        let pieces = ["A cat sat on the mat. ", "\n", "\"quoted\" ", "back\\slash ", "café ", "日本語 ", "🙂 ", "tab\t", "/", "\u{7}"]
        var text = ""
        while text.utf8.count < count { text += pieces.randomElement(using: &random)! }
        return text
    }

    static func record(_ value: String) -> [UInt8] {
        Array(#"{"type":"part-update","index":1,"part":{"type":"text","text":\#(value)}}"#.utf8)
    }

    static func read(_ bytes: [UInt8], elided: [ElidedString] = []) -> JSON? {
        bytes.withUnsafeBytes { try? JSON.read($0, elided: elided) }
    }

    static func storage(_ text: String) -> UnsafeRawPointer? {
        var text = text
        return text.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    static let chunkings: [[Int]] = [[1], [7, 1, 3], [4096], [65_536], [100_000], [13, 65_535, 2]]

    @Test func aRepeatedTextIsLeftOutWhateverTheChunksAndEscapes() throws {
        let held = Self.text(300_000, seed: 1)
        let other = Self.text(200_000, seed: 2)
        // Spelled as a writer with other habits would: \/ and \u escapes for what need none.
        let spelled = Self.encoded(held).replacingOccurrences(of: "/", with: #"\/"#)
            .replacingOccurrences(of: "é", with: #"\u00e9"#).replacingOccurrences(of: "🙂", with: #"\ud83d\ude42"#)
        for value in [Self.encoded(held), spelled] {
            let line = Self.record(value)
            for chunks in Self.chunkings {
                let got = try Self.feed(line, held: [other, held], chunks: chunks)
                #expect(got.elided.count == 1, "\(chunks)")
                #expect(got.line.count < 200, "\(chunks): \(got.line.count) bytes kept")
                #expect(got.largestBuffer < 70_000, "\(chunks): \(got.largestBuffer) bytes buffered")
                let record = try #require(Self.read(got.line, elided: got.elided))
                #expect(record == Self.read(line))
                let text = try #require(record["part"]?["text"]?.stringValue)
                #expect(Self.storage(text) == Self.storage(held), "the held String itself, not a copy")
            }
        }
    }

    @Test func aStringThatDiffersAnywhereIsKeptAsItCame() throws {
        let held = Self.text(100_000, seed: 3)
        let bytes = Array(held.utf8)
        var variants: [String] = [
            String(held.dropLast()) + "!", "!" + String(held.dropFirst()), held + "x", String(held.dropLast()),
            String(decoding: bytes[..<50_000] + Array("X".utf8) + bytes[50_001...], as: UTF8.self),
        ].map(Self.encoded)
        // Not plainly JSON: a bad escape, a lone surrogate, NUL, a raw control byte, an end inside it.
        let encoded = Self.encoded(held)
        let middle = encoded.index(encoded.startIndex, offsetBy: 70_001)
        for inserted in [#"\x"#, #"\ud83d"#, #"\ud83d\u0041"#, #"\u0000"#, "\u{1}", #"\u12"#] {
            variants.append(String(encoded[..<middle]) + inserted + String(encoded[middle...]))
        }
        // A raw control byte where the text has one (escaped in JSON): not JSON, though the bytes match.
        #expect(encoded.contains(#"\u0007"#))
        variants.append(encoded.replacingOccurrences(of: #"\u0007"#, with: "\u{7}"))
        for (number, value) in variants.enumerated() {
            let line = Self.record(value)
            for chunks in Self.chunkings {
                let got = try Self.feed(line, held: [held], chunks: chunks)
                #expect(got.elided.isEmpty, "variant \(number), \(chunks)")
                // The same record, or the same refusal, as the line read whole.
                #expect(Self.read(got.line, elided: got.elided) == Self.read(line), "variant \(number), \(chunks)")
            }
        }
        // NUL (\u0000), which JSON.read takes: left out too, and read as the whole line reads.
        let withNUL = String(held.prefix(60_000)) + "\u{0}" + String(held.dropFirst(60_000))
        let nulLine = Self.record(Self.encoded(withNUL))
        let nul = try Self.feed(nulLine, held: [withNUL], chunks: [4096])
        #expect(nul.elided.count == 1 && Self.read(nulLine) != nil)
        #expect(Self.read(nul.line, elided: nul.elided) == Self.read(nulLine))
        // A line that ends inside the string.
        let cut = Array(Self.record(encoded).dropLast(4))
        let got = try Self.feed(cut, held: [held], chunks: [1000])
        #expect(got.elided.isEmpty && got.line == cut)
    }

    @Test func everyStringOfTheLineIsComparedAndAKeyIsReadBackWhole() throws {
        let first = Self.text(80_000, seed: 4)
        let second = Self.text(90_000, seed: 5)
        let line = Array((#"{"type":"message-end","message":{"parts":[{"type":"text","text":"# + Self.encoded(first)
            + #"},{"type":"reasoning","text":"# + Self.encoded(second) + #"},{"type":"text","text":"# + Self.encoded(first)
            + "}]}}").utf8)
        let got = try Self.feed(line, held: [first, second], chunks: [3000, 1])
        #expect(got.elided.count == 3 && got.line.count < 300)
        #expect(Self.read(got.line, elided: got.elided) == Self.read(line))
        // As a key, the text is read back into the line for the general path (JSON.parse).
        let keyed = Array(("{" + Self.encoded(first) + #":1,"b":"# + Self.encoded(second) + "}").utf8)
        let read = try Self.feed(keyed, held: [first, second], chunks: [5000])
        #expect(read.elided.count == 2)
        #expect(Self.read(read.line, elided: read.elided) == Self.read(keyed))
    }

    @Test func shortLinesAndShortTextsAreReadAsTheyCame() throws {
        // Under the length where the elision starts, and a held text under its minimum.
        let held = Self.text(5000, seed: 6)
        let line = Self.record(Self.encoded(held))
        let got = try Self.feed(line, held: [held], chunks: [100])
        #expect(got.elided.isEmpty && got.line == line)
        let short = Self.text(4000, seed: 7)
        let padded = Array((#"{"pad":"# + Self.encoded(String(repeating: "p", count: 70_000)) + #","text":"# + Self.encoded(short) + "}").utf8)
        let kept = try Self.feed(padded, held: [short], chunks: [4096])
        #expect(kept.elided.isEmpty && kept.line == padded)
    }

    @Test func randomLinesReadAsTheWholeLineReads() throws {
        var random = SplitMix(seed: 99)
        for round in 0..<60 {
            let held = Self.text(Int.random(in: 66_000..<90_000, using: &random), seed: UInt64(round) + 100)
            var value = Self.encoded(held)
            // Sometimes changed at one random place: a byte replaced, or cut there.
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                let at = value.index(value.startIndex, offsetBy: Int.random(in: 1..<(value.count - 1), using: &random))
                value = String(value[..<at]) + ["Z", "\\", "\"", "\\u00"].randomElement(using: &random)! + String(value[value.index(after: at)...])
            case 1:
                let at = value.index(value.startIndex, offsetBy: Int.random(in: 1..<(value.count - 1), using: &random))
                value = String(value[..<at]) + "\""
            default: break
            }
            let line = Self.record(value)
            let chunks = (0..<3).map { _ in Int.random(in: 1..<70_000, using: &random) }
            let got = try Self.feed(line, held: [held], chunks: chunks)
            #expect(Self.read(got.line, elided: got.elided) == Self.read(line), "round \(round), \(chunks)")
        }
    }
}
