import Testing
@testable import PSCore

/// The repair vectors of the AI SDK's own fix-json.test.ts, and parsePartialJson on top of them.
@Suite struct PartialJSONTests {
    static let repairs: [(String, String)] = [
        ("", ""), ("nul", "null"), ("t", "true"), ("fals", "false"), ("12.", "12"), ("12.2", "12.2"),
        ("-12", "-12"), ("-", ""), ("2.5e", "2.5"), ("2.5e-", "2.5"), ("2.5e3", "2.5e3"), ("-2.5E3", "-2.5E3"),
        ("12.e", "12"), ("5e", "5"), ("\"abc", "\"abc\""), ("\"value with \\", "\"value with \""),
        ("\"\\u", "\"\""), ("\"\\u12", "\"\""), ("\"text \\u00", "\"text \""), ("{\"a\":\"\\u12", "{\"a\":\"\"}"),
        ("[", "[]"), ("[[1], [2", "[[1], [2]]"), ("[[\"1\"], [\"2", "[[\"1\"], [\"2\"]]"),
        ("[[false], [nu", "[[false], [null]]"), ("[[[]], [[]", "[[[]], [[]]]"), ("[[{}], [{", "[[{}], [{}]]"),
        ("[1, ", "[1]"), ("[[], 123", "[[], 123]"), ("{\"key\":", "{}"), ("{\"ke", "{}"),
        ("{\"k1\": 1, \"k2", "{\"k1\": 1}"), ("{\"k1\": 1, \"k2\":", "{\"k1\": 1}"),
        ("{\"key\": \"value\"  ", "{\"key\": \"value\"}"), ("{\"a\": {\"b\": {}", "{\"a\": {\"b\": {}}}"),
        ("[1, [2, 3, [", "[1, [2, 3, []]]"), ("{\"key\": {\"subKey\":", "{\"key\": {}}"),
        ("{\"key\": [1, 2, {", "{\"key\": [1, 2, {}]}"), ("{\"a\": 1, \"b\": \"", "{\"a\": 1, \"b\": \"\"}"),
        ("{\"name\":\"Zoë 😀", "{\"name\":\"Zoë 😀\"}"),
    ]

    @Test func repairsAsTheSDKDoes() {
        for (input, expected) in Self.repairs {
            #expect(PartialJSON.repair(input) == expected, "fixJson(\(input))")
        }
    }

    @Test func parsesWholeTextFirstThenTheRepairedOne() {
        #expect(PartialJSON.parse(#"{"pageId":"x"#) == ["pageId": "x"])
        #expect(PartialJSON.parse(#"{"a":[1,2"#)?.serialized() == #"{"a":[1,2]}"#)
        #expect(PartialJSON.parse("") == nil)
        #expect(PartialJSON.parse("}") == nil)
    }

    @Test func refusesPrototypeKeysLikeTheSecureParser() {
        #expect(PartialJSON.parse(#"{"__proto__":{"x":1}}"#) == nil)
        #expect(PartialJSON.parse(#"{"constructor":{"prototype":{}}}"#) == nil)
        #expect(PartialJSON.parse(#"{"constructor":"fine"}"#) == ["constructor": "fine"])
    }

    @Test func ordersIntegerKeysFirstAsJavaScriptDoes() {
        #expect(PartialJSON.parse(#"{"b":1,"10":2,"2":3,"01":4}"#)?.serialized() == #"{"2":3,"10":2,"b":1,"01":4}"#)
    }

    @Test func mergesMetadataDeeply() throws {
        let merged = MetadataMerge.merge(
            try JSON.parse(#"{"a":{"b":1,"c":[1]},"x":"y"}"#), try JSON.parse(#"{"a":{"c":[2],"d":null},"x":{"z":1}}"#))
        #expect(merged.serialized() == #"{"a":{"b":1,"c":[2],"d":null},"x":{"z":1}}"#)
        #expect(MetadataMerge.merge(["a": 1], "hi").serialized() == #"{"0":"h","1":"i","a":1}"#)
        #expect(MetadataMerge.merge(["a": 1], ["__proto__": ["x": 1]]).serialized() == #"{"a":1}"#)
    }
}
