import Foundation
import Testing
import TestSupport
@testable import PSCore

/// `JSON.scan` (RecordScanner) reads records straight from their bytes: whenever it answers, it
/// gives what jansson gives (`JSON.parse`), keys in the same order; what it does not take it
/// leaves to `JSON.parse`, which reads it or reports it.
@Suite struct RecordScannerTests {
    func scan(_ text: String) -> JSON? { Array(text.utf8).withUnsafeBytes { JSON.scan($0) } }
    func scan(_ bytes: [UInt8]) -> JSON? { bytes.withUnsafeBytes { JSON.scan($0) } }
    /// Whether the scanner takes the text (`== nil` would read nil as JSON's null).
    func takes(_ text: String) -> Bool { scan(text).map { _ in true } ?? false }

    /// Same value and the same key order (serialized writes the keys in their order).
    func expectSame(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let general = try JSON.parse(text)
        let fast = try #require(scan(text), "not taken: \(text)", sourceLocation: sourceLocation)
        #expect(fast == general, "\(text)", sourceLocation: sourceLocation)
        #expect(fast.serialized() == general.serialized(), "\(text)", sourceLocation: sourceLocation)
    }

    @Test func readsTheRecordsPsRenderIsGiven() throws {
        let records = [
            #"{"type":"message-start","messageId":"m1","role":"assistant"}"#,
            ##"{"type":"part-update","index":1,"part":{"type":"text","text":"# Hi\n\n\"q\" caf\u00e9 😀 \\ /","state":"done"}}"##,
            #"{"id":"m1","role":"assistant","parts":[{"type":"step-start"},{"type":"text","text":"a\tb\r\n"}],"metadata":{"usage":{"inputTokens":12,"outputTokens":0}}}"#,
            #"{"type":"message-end","message":{"id":"m1","role":"assistant","parts":[]},"status":"incomplete","reason":null}"#,
            #"{"type":"part-start","index":0,"part":{"type":"tool-search","toolCallId":"c1","state":"input-available","input":{"q":"x","n":[1,-2,0,3.5,-0.25,1e3,2E-2,true,false,null,{},[]]}}}"#,
        ]
        for record in records { try expectSame(record) }
    }

    @Test func readsAnySpellingAndAnyScalar() throws {
        let texts = [
            " \t\r\n{ \"b\" :\n1 ,\t\"a\": [ true ,null, 2.5 , \"x\\ny\" ] , \"c\" : { } } \n",
            "[]", "[ ]", "{}", "\"\"", "0", "-0", "-0.0", "12", "true", "null",
            "9223372036854775807", "-9223372036854775808", "1.7976931348623157e308", "5e-324", "1E+2",
            #""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00\u0000 end""#,
            #"{"":"empty key","日本":"語","a":{"a":{"a":[[[["deep"]]]]}}}"#,
        ]
        for text in texts { try expectSame(text) }
    }

    /// Each of these is left to JSON.parse: bad JSON it reports, or a value the scanner does not
    /// build itself (numbers jansson cannot hold, keys with escapes, very deep nesting).
    @Test func leavesTheRestToTheGeneralPath() {
        let refused = [
            "", " ", "{", "{\"a\":1", "{\"a\" 1}", "{\"a\":1,}", "[1,]", "[1 2]", "{\"a\":1} x", "01", "1.", "-", "1e",
            ".5", "+1", "tru", "nul", "{'a':1}", "{\"a\":1,\"a\":2}", #""\ud800""#, #""\udc00 x""#, #""\x""#,
            "\"a\u{1}b\"", "\"open", "{\"a\":\"b\"}\u{0}",
        ]
        for text in refused {
            #expect(!takes(text), "\(text.debugDescription) -> \(String(describing: scan(text)))")
            #expect(throws: JSONParseError.self, "\(text.debugDescription)") { try JSON.parse(text) }
        }
        let leftToJansson = [
            #"{"a\u0062":1}"#, "123456789012345678901234567890", "1e400", "1e-400", "-9223372036854775809",
            String(repeating: "[", count: 80) + String(repeating: "]", count: 80),
        ]
        for text in leftToJansson {
            #expect(!takes(text), "\(text)")
            #expect((try? JSON.parse(text)) != nil, "\(text)")
        }
        var invalid = Array(#"{"text":"ab"}"#.utf8)
        invalid[invalid.count - 4] = 0xFF
        #expect(scan(invalid).map { _ in true } ?? false == false)
        var surrogate = Array(#"{"text":"abc"}"#.utf8)
        surrogate.replaceSubrange(10..<13, with: [0xED, 0xA0, 0x80])  // U+D800 as UTF-8: not UTF-8
        #expect(scan(surrogate).map { _ in true } ?? false == false)
    }

    /// Random records, spelled with random whitespace: the scanner takes every one of them and
    /// reads it exactly as jansson does.
    @Test func agreesWithJanssonOnGeneratedRecords() throws {
        var random = SplitMix(seed: 182)
        for _ in 0..<2000 {
            var text = ""
            Self.generate(depth: 0, into: &text, &random)
            try expectSame(text)
        }
    }

    /// Records with a few bytes inserted, removed or changed: whatever the scanner takes, jansson
    /// reads to the same value; what jansson refuses, the scanner does not take.
    @Test func agreesWithJanssonOnMutatedRecords() throws {
        var random = SplitMix(seed: 1802)
        let alphabet = Array("{}[],:\"\\/ 0123456789.eE+-tfnulrsabu\t\n".utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF0, 0xFF]
        var taken = 0
        for _ in 0..<4000 {
            var text = ""
            Self.generate(depth: 0, into: &text, &random)
            var bytes = Array(text.utf8)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let position = Int.random(in: 0...bytes.count, using: &random)
                let byte = alphabet.randomElement(using: &random)!
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes.insert(byte, at: position)
                case 1: if position < bytes.count { bytes.remove(at: position) }
                default: if position < bytes.count { bytes[position] = byte }
                }
            }
            guard let fast = scan(bytes) else { continue }
            taken += 1
            let general = try bytes.withUnsafeBytes { try JSON.parse($0) }
            #expect(fast == general && fast.serialized() == general.serialized(), "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
        #expect(taken > 500)
    }

    /// A long text is read whole, escapes and all, as one string.
    @Test func readsALongMessageText() throws {
        var body = ""
        for index in 0..<40_000 { body += "Line \(index) \\\"quoted\\\" caf\\u00e9 😀\\n" }
        let record = #"{"id":"m1","role":"assistant","parts":[{"type":"text","text":""# + body + #""}]}"#
        try expectSame(record)
        let text = try #require(scan(record)?["parts"]?.arrayValue?.first?["text"]?.stringValue)
        #expect(text.hasPrefix("Line 0 \"quoted\" café 😀\nLine 1 "))
        var expected = 0
        for index in 0..<40_000 { expected += 26 + String(index).utf8.count }
        #expect(text.utf8.count == expected)
    }

    /// Every piece boundary of the decoding (64 KiB) falls somewhere in a run of 4-byte scalars,
    /// escapes and surrogate pairs: the text is still read whole and exact.
    @Test func readsScalarsAndEscapesAcrossPieces() throws {
        for filler in ["😀", #"\ud83d\ude00"#, #"\u00e9"#, "é", #"\n"#] {
            for shift in 0..<4 {
                let body = String(repeating: "a", count: shift) + String(repeating: filler + "x", count: 40_000)
                try expectSame(#"{"text":""# + body + #""}"#)
            }
        }
    }

    static let spaces = ["", " ", "\n", "\t ", "\r\n"]
    static let strings = ["", "text", "café", "日本語 🙂", #"\"q\" \\ \/ \n\t"#, #"\u00e9\ud83d\ude00\u0000"#, "a b"]
    static let numbers = ["0", "-0", "7", "-12", "123456789", "2.5", "-0.125", "1e3", "6.02E+23", "1e-5", "9223372036854775807"]

    static func generate(depth: Int, into text: inout String, _ random: inout SplitMix) {
        func space() -> String { spaces.randomElement(using: &random)! }
        switch depth >= 4 ? Int.random(in: 0..<4, using: &random) : Int.random(in: 0..<6, using: &random) {
        case 0: text += "\"" + strings.randomElement(using: &random)! + "\""
        case 1: text += numbers.randomElement(using: &random)!
        case 2: text += ["true", "false", "null"].randomElement(using: &random)!
        case 3: text += "\"" + String(repeating: "ab\\n", count: Int.random(in: 0..<50, using: &random)) + "\""
        case 4:
            text += "[" + space()
            for index in 0..<Int.random(in: 0..<4, using: &random) {
                if index > 0 { text += space() + "," + space() }
                generate(depth: depth + 1, into: &text, &random)
            }
            text += space() + "]"
        default:
            text += "{" + space()
            let keys = ["type", "text", "index", "part", "é", "", "id"].shuffled(using: &random)
            for index in 0..<Int.random(in: 0..<5, using: &random) {
                if index > 0 { text += space() + "," + space() }
                text += "\"" + keys[index] + "\"" + space() + ":" + space()
                generate(depth: depth + 1, into: &text, &random)
            }
            text += space() + "}"
        }
    }
}
