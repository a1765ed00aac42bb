import Testing
@testable import PSCore

/// ps-render's fast path for part-delta records: whenever it answers, it gives what the general
/// path (jansson) gives; what it does not take (anything but a plain part delta) it leaves alone.
@Suite struct PartDeltaRecordTests {
    func match(_ line: String) -> (index: Int, delta: String)? {
        var result: (index: Int, delta: String)?
        let matched = Array(line.utf8).withUnsafeBytes { bytes in
            PartDeltaRecord.match(bytes) { index, delta in result = (index, String(decoding: delta, as: UTF8.self)) }
        }
        #expect(matched == (result != nil))
        return result
    }

    /// What jansson reads: the index and delta of a record with exactly those three keys.
    func general(_ line: String) -> (index: Int, delta: String)? {
        guard let object = try? Array(line.utf8).withUnsafeBytes({ try JSON.parse($0) }).objectValue,
            object.count == 3, object["type"]?.stringValue == "part-delta",
            let index = object["index"]?.intValue, let delta = object["delta"]?.stringValue
        else { return nil }
        return (Int(index), delta)
    }

    @Test func takesWhatPsPartsWritesInAnySpelling() {
        let lines = [
            #"{"type":"part-delta","index":1,"delta":"Hi é"}"#,
            #"{"type": "part-delta", "index": 1, "delta": "Hi \u00e9"}"#,
            #" {"delta":"Hi é" , "index" : 1,"type":"part-delta"} "#,
        ]
        for line in lines {
            let result = match(line)
            #expect(result?.index == 1 && result?.delta == "Hi é", "\(line)")
        }
        #expect(match(#"{"type":"part-delta","index":0,"delta":"\"\\\/\b\f\n\r\t\u0041\ud83d\ude00\u0000"}"#)?.delta
            == "\"\\/\u{8}\u{c}\n\r\tA😀\u{0}")
        #expect(match(#"{"type":"part-delta","index":123456789,"delta":""}"#)?.index == 123_456_789)
    }

    /// Each of these is left to the general path, which reports it or reads it in full.
    @Test func leavesEverythingElse() {
        let lines = [
            #"{"type":"part-delta","index":1,"delta":"a","extra":1}"#,
            #"{"type":"part-delta","index":1,"index":2,"delta":"a"}"#,
            #"{"type":"part-delta","index":1.0,"delta":"a"}"#,
            #"{"type":"part-delta","index":1e0,"delta":"a"}"#,
            #"{"type":"part-delta","index":-1,"delta":"a"}"#,
            #"{"type":"part-delta","index":01,"delta":"a"}"#,
            #"{"type":"part-delta","index":1234567890,"delta":"a"}"#,
            #"{"type":"part-delta","index":"1","delta":"a"}"#,
            #"{"type":"part-delta","index":1,"delta":"\ud800"}"#,
            #"{"type":"part-delta","index":1,"delta":1}"#,
            #"{"type":"part-start","index":1,"delta":"a"}"#,
            #"{"type":"part-delta","index":1,"delta":"a"} x"#,
            #"{"type":"part-delta","index":1,"delta":"a""#,
            #"{"type":"part-delta","index":1}"#,
            "{\"type\":\"part-delta\",\"index\":1,\"delta\":\"\u{1}\"}",
        ]
        for line in lines { #expect(match(line) == nil, "\(line)") }
        var invalid = Array(#"{"type":"part-delta","index":1,"delta":"ab"}"#.utf8)
        invalid[invalid.count - 4] = 0xFF
        #expect(!invalid.withUnsafeBytes { PartDeltaRecord.match($0) { _, _ in Issue.record("called") } })
    }

    /// Generated spellings: the fast path and jansson agree wherever the fast path answers, and
    /// it answers for every plain part delta.
    @Test func agreesWithTheGeneralPath() {
        let spaces = ["", " ", "\n\t", " \r\n "]
        let deltas = [#""""#, #""plain""#, #""caf\u00e9 \"q\" \\ \n""#, #""日本語 🙂""#, #""\ud83d\ude00""#]
        var checked = 0
        for (number, delta) in deltas.enumerated() {
            for space in spaces {
                let pairs = [#""type"\#(space):\#(space)"part-delta""#, #""index"\#(space):\#(space)\#(number * 7)"#,
                             #""delta"\#(space):\#(space)\#(delta)"#]
                for order in [[0, 1, 2], [2, 1, 0], [1, 2, 0]] {
                    let line = space + "{" + order.map { pairs[$0] }.joined(separator: space + "," + space) + space + "}" + space
                    let fast = match(line)
                    let slow = general(line)
                    #expect(fast != nil, "\(line)")
                    #expect(fast?.index == slow?.index && fast?.delta == slow?.delta, "\(line)")
                    checked += 1
                }
            }
        }
        #expect(checked == 60)
    }
}
