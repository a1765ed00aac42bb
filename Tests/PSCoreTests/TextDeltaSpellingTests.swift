import Testing
import TestSupport
@testable import PSCore

/// ps-parts' fast path reads a text delta's chunk however its server spells it, and gives
/// exactly what the general path (jansson) gives; what it does not take, it leaves to that path.
@Suite struct TextDeltaSpellingTests {
    func match(_ line: String) -> (id: String, delta: String)? {
        Array(line.utf8).withUnsafeBytes { bytes in
            TextDeltaRecord.match(bytes).map { (String(decoding: $0.id, as: UTF8.self), $0.delta) }
        }
    }

    func record(_ chunk: String) -> String { #"{"event":"message","id":"9","data":\#(chunk)}"# }

    @Test func takesCompactSpacedAndReorderedChunks() {
        let spellings = [
            #"{"type":"text-delta","id":"t1","delta":"Hi é"}"#,
            #"{"type": "text-delta", "id": "t1", "delta": "Hi é"}"#,  // Python's json.dumps
            "{\n  \"type\" : \"text-delta\",\n\t\"id\":\"t1\",\r\n \"delta\": \"Hi \\u00e9\"\n}",
            #"{"delta":"Hi \u00E9","id":"t1","type":"text-delta"}"#,
            #" { "id":"t1" , "delta" : "Hi é" , "type" : "text-delta" } "#,
        ]
        for spelling in spellings {
            let result = match(record(spelling))
            #expect(result?.id == "t1" && result?.delta == "Hi é", "\(spelling)")
        }
    }

    @Test func decodesEveryEscape() {
        let result = match(record(#"{"type": "text-delta", "id": "t", "delta": "\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00\u0000"}"#))
        #expect(result?.delta == "\"\\/\u{8}\u{c}\n\r\tAé€😀\u{0}")
    }

    /// Random chunks of many spellings: whenever the fast path answers, jansson reads the same
    /// chunk to the same id and delta; and it answers for every chunk that has exactly the three
    /// keys, no escaped id and no lone surrogate.
    @Test func agreesWithTheGeneralPathOnGeneratedChunks() throws {
        var random = SplitMix(seed: 18)
        var taken = 0
        for _ in 0..<3000 {
            let generated = GeneratedChunk(&random)
            let line = record(generated.text)
            let fast = match(line)
            guard let data = (try? JSON.parse(line))?["data"] else {
                #expect(fast == nil, "\(line)")  // jansson refuses a lone surrogate
                continue
            }
            if let fast {
                let object = try #require(data.objectValue)
                #expect(object.count == 3 && object["type"]?.stringValue == "text-delta", "\(line)")
                #expect(object["id"]?.stringValue == fast.id && object["delta"]?.stringValue == fast.delta, "\(line)")
                taken += 1
            } else {
                #expect(!generated.ordinary, "the fast path refused \(line)")
            }
        }
        #expect(taken > 1500)
    }

    /// ps-sse's check of an event's data: a chunk the fast path takes is JSON to jansson too,
    /// and a chunk followed by anything, or cut short, is left to jansson.
    @Test func aChunkItTakesIsJSONAndNothingMore() {
        func isChunk(_ text: String) -> Bool { Array(text.utf8).withUnsafeBytes { TextDeltaRecord.isChunk($0) } }
        var random = SplitMix(seed: 33)
        var taken = 0
        for _ in 0..<3000 {
            let text = GeneratedChunk(&random).text
            if isChunk(text) {
                #expect(JSONSyntax.isValid(Array(text.utf8)), "\(text)")
                taken += 1
            }
        }
        #expect(taken > 1500)
        let chunk = #"{"type":"text-delta","id":"t","delta":"x"}"#
        #expect(isChunk(chunk) && isChunk(" " + chunk + " "))
        #expect(!isChunk(chunk + "}") && !isChunk(chunk + ",{}") && !isChunk(String(chunk.dropLast())))
    }
}

/// A text-delta chunk spelled at random: whitespace, key order, escapes, unicode, and now and
/// then a duplicate or extra key or a lone surrogate, which the fast path must leave alone.
struct GeneratedChunk {
    var text = ""
    /// Whether the fast path must take it.
    var ordinary = true

    init(_ random: inout SplitMix) {
        let spaces = ["", " ", "  ", "\t", "\n", "\r\n", " \t "]
        func space(_ random: inout SplitMix) -> String {
            random.next(4) == 0 ? spaces[random.next(spaces.count)] : (random.next(2) == 0 ? "" : " ")
        }
        var members = [("type", #""text-delta""#), ("id", #""t\#(random.next(3))""#), ("delta", Self.delta(&random, &ordinary))]
        switch random.next(12) {
        case 0: members.append(members[random.next(3)]); ordinary = false  // a duplicate key
        case 1: members.append(("providerMetadata", "{}")); ordinary = false
        case 2: members[1].1 = #""\u0074""#; ordinary = false  // an escaped id
        default: break
        }
        members.shuffle(using: &random)
        text = space(&random) + "{"
        for (index, member) in members.enumerated() {
            if index > 0 { text += space(&random) + "," }
            text += space(&random) + "\"\(member.0)\"" + space(&random) + ":" + space(&random) + member.1
        }
        text += space(&random) + "}" + space(&random)
    }

    static func delta(_ random: inout SplitMix, _ ordinary: inout Bool) -> String {
        let pieces = ["a", "word ", "é", "日本", "😀", #"\n"#, #"\t"#, #"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\r"#,
                      #"\u00e9"#, #"\u00E9"#, #"\u0000"#, #"\u001f"#, #"\ud83d\ude00"#, #"\uD83D\uDE00"#, #"\u20ac"#, " "]
        var text = "\""
        for _ in 0..<random.next(8) { text += pieces[random.next(pieces.count)] }
        if random.next(40) == 0 { text += #"\ud800x"#; ordinary = false }  // a lone surrogate
        return text + "\""
    }
}

extension SplitMix {
    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
