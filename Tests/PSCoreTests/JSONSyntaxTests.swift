import CJansson
import Testing
import TestSupport
@testable import PSCore

/// JSONSyntax must accept exactly what JSON.parse accepts, or ps-sse would copy data into a
/// record that the next command cannot read; and both must accept what jansson, the reference
/// parser, accepts, except numbers beyond 64 bits or Double's range, which jansson refuses and we
/// keep, and objects with a key given twice, which JSON.parse refuses though the syntax is valid.
/// Checked case by case and on many mutated texts; the other difference (a raw NUL byte
/// outside strings, which jansson sometimes takes for the end) is checked on its own.
@Suite struct JSONSyntaxTests {
    enum Verdict: Equatable { case accepts, refuses, refusesTheNumberRange }

    static func jansson(_ bytes: [UInt8], rejectingDuplicates: Bool = false) -> Verdict {
        var error = json_error_t()
        let flags = JSON_DECODE_ANY | JSON_ALLOW_NUL | (rejectingDuplicates ? JSON_REJECT_DUPLICATES : 0)
        let root = bytes.withUnsafeBytes { raw in
            json_loadb(raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count, Int(flags), &error)
        }
        if let root {
            json_decref(root)
            return .accepts
        }
        let text = withUnsafeBytes(of: &error.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return text.contains("too big") || text.contains("overflow") ? .refusesTheNumberRange : .refuses
    }

    static func parses(_ bytes: [UInt8]) -> Bool { (try? JSON.parse(bytes: bytes)) != nil }

    static func parseError(_ bytes: [UInt8]) -> String? {
        do { _ = try JSON.parse(bytes: bytes) } catch { return "\(error)" }
        return nil
    }

    /// What we must say about a text jansson judged so.
    static func agrees(_ bytes: [UInt8]) -> Bool {
        let valid = JSONSyntax.isValid(bytes)
        // Duplicate keys are valid syntax, which ps-sse copies through, but JSON.parse refuses
        // them (exit 3 in the command that reads the chunk): a key given twice is never guessed.
        if jansson(bytes) == .accepts && jansson(bytes, rejectingDuplicates: true) == .refuses {
            return valid && !parses(bytes)
        }
        if valid, let error = parseError(bytes), error.contains("duplicate") { return true }  // behind a big number
        guard valid == parses(bytes) else { return false }
        switch jansson(bytes) {
        case .accepts: return valid
        case .refuses: return !valid
        case .refusesTheNumberRange: return true  // jansson stopped at the number: nothing known after it
        }
    }

    static let cases: [String] = [
        "1", "-0", "0", "01", "1.", ".5", "-", "+1", "1e", "1E+2", "1e-2", "1.5e3", "-1.25", "1e400", "-1e400", "1e-400",
        String(repeating: "1", count: 400) + ".0", "0." + String(repeating: "1", count: 400),
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "99999999999999999999", "1234567890123456789",
        "true", "false", "null", "tru", "nulll", "True", "[true,false,null]",
        "\"\"", "\"a\"", "\"\\u0000\"", "{\"\\u0000\":1}", "{\"a\\u0000\":1}", "\"\\ud800\"", "\"\\udc00\"",
        "\"\\ud800\\udc00\"", "\"\\uD83D\\uDE00\"", "\"\\ud800\\u0041\"", "\"\\ud800x\"", "\"\\/\"", "\"\\U0041\"", "\"\\x\"",
        "\"\\u12\"", "\"\\u12g4\"", "\"a\tb\"", "\"\u{7F}\"", "\"é✓🎉\"", "\"unterminated", "\"a\\\"",
        "[]", "{}", "[1,]", "{\"a\":1,}", "[,1]", "{,}", "{\"a\" 1}", "{\"a\":}", "{1:2}", "[1 2]", "[[[]]]",
        " 1 ", "\t\n\r 1", "\u{0C}1", "1 2", "{\"a\":[1,{\"b\":null}],\"c\":\"d\"}", "{\"a\":1}x", "[\"a\",]",
        "{\"type\":\"text-delta\",\"id\":\"0\",\"delta\":\"Hello \\\"world\\\"\\n\"}",
    ]

    @Test(arguments: cases)
    func agreesWithJansson(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(Self.agrees(bytes), "\(text.prefix(60))")
    }

    @Test(arguments: [
        "1e400", "-1e400", "1E+999", "1e-400", "-0.0000e-999999", "9223372036854775808", "-9223372036854775809",
        "123456789012345678901234567890", String(repeating: "9", count: 400) + ".5",
    ])
    func acceptsNumbersBeyondJanssonsRange(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(JSONSyntax.isValid(bytes))
        #expect(Self.parses(bytes))
        #expect(Self.jansson(bytes) != .refuses)
    }

    @Test func agreesOnInvalidUTF8() {
        let strings: [[UInt8]] = [
            [0xC0, 0x80], [0xC1, 0xBF], [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0x9F, 0x80], [0xE0, 0xA0, 0x80],
            [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80],
            [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0xC3], [0xE2, 0x82],
            [0xC3, 0x28],
        ]
        for inner in strings {
            let bytes = [UInt8(ascii: "\"")] + inner + [UInt8(ascii: "\"")]
            #expect(Self.agrees(bytes), "\(inner)")
            #expect(JSONSyntax.isValid(bytes) == (Self.jansson(bytes) == .accepts), "\(inner)")
        }
        #expect(!JSONSyntax.isValid([0xEF, 0xBB, 0xBF, 0x31]))
    }

    @Test func agreesOnTheNestingLimit() {
        for depth in [2047, 2048, 2049] {
            let arrays = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
            #expect(JSONSyntax.isValid(arrays) == (Self.jansson(arrays) == .accepts), "arrays \(depth)")
            #expect(Self.agrees(arrays), "arrays \(depth)")
            let objects = Array((String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)).utf8)
            #expect(JSONSyntax.isValid(objects) == (Self.jansson(objects) == .accepts), "objects \(depth)")
            #expect(Self.agrees(objects), "objects \(depth)")
        }
    }

    @Test func refusesARawNULOutsideStrings() {
        for text in ["1\u{0}", "[1\u{0}]", "\u{0}", "\"a\u{0}b\"", "{\"a\":1}\u{0}"] {
            #expect(!JSONSyntax.isValid(Array(text.utf8)), "\(text.debugDescription)")
            #expect(!Self.parses(Array(text.utf8)), "\(text.debugDescription)")
        }
    }

    /// Random JSON texts, then random edits of them, with a fixed seed.
    @Test func agreesOnMutatedTexts() {
        var random = SplitMix(seed: 42)
        let alphabet = Array("{}[],:\"\\/ 0123456789.eE+-tfnulrsabu\u{0C}\t\n".utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF0, 0xFF]
        var disagreements: [String] = []
        for _ in 0..<4000 {
            var bytes = Array(Self.randomJSON(&random, depth: 0).utf8)
            for _ in 0..<Int(random.next() % 3) {
                let position = Int(random.next() % UInt64(bytes.count + 1))
                let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 3 {
                case 0: bytes.insert(byte, at: position)
                case 1: if position < bytes.count { bytes.remove(at: position) }
                default: if position < bytes.count { bytes[position] = byte }
                }
            }
            if bytes.contains(0) { continue }  // The deliberate difference, tested above.
            if !Self.agrees(bytes) {
                disagreements.append(String(decoding: bytes, as: UTF8.self).debugDescription)
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    static func randomJSON(_ random: inout SplitMix, depth: Int) -> String {
        let pick = depth > 3 ? random.next() % 5 : random.next() % 7
        switch pick {
        case 0: return ["true", "false", "null"][Int(random.next() % 3)]
        case 1: return ["0", "-1", "42", "3.25", "-0.5e-3", "1E10", "9223372036854775807", "12345678901234567890"][Int(random.next() % 8)]
        case 2, 3: return ["\"\"", "\"text\"", "\"a\\\"b\"", "\"\\u00e9\\n\"", "\"é✓\"", "\"\\ud83d\\ude00\"", "\"x\\\\y\""][Int(random.next() % 7)]
        case 4: return " \(randomJSON(&random, depth: depth + 1)) "
        case 5:
            let items = (0..<Int(random.next() % 4)).map { _ in randomJSON(&random, depth: depth + 1) }
            return "[" + items.joined(separator: ",") + "]"
        default:
            let members = (0..<Int(random.next() % 4)).map { index in "\"k\(index)\":" + randomJSON(&random, depth: depth + 1) }
            return "{" + members.joined(separator: ",") + "}"
        }
    }
}
