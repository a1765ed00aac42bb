import Testing
@testable import PSCore

@Suite struct JSONTests {
    @Test func parsesAndWritesCompactlyKeepingKeyOrder() throws {
        let value = try JSON.parse(#"{ "b": 1, "a": [true, null, 2.5, "x\ny"], "c": {"d": -3} }"#)
        #expect(value.serialized() == #"{"b":1,"a":[true,null,2.5,"x\ny"],"c":{"d":-3}}"#)
    }

    @Test func writesRealsAsJavaScriptDoes() throws {
        #expect(JSON.real(0.1).serialized() == "0.1")
        #expect(JSON.real(5).serialized() == "5")
        #expect(JSON.real(-0.5).serialized() == "-0.5")
        #expect(JSON.real(.nan).serialized() == "null")
    }

    @Test func escapesControlCharactersAndKeepsUnicode() throws {
        #expect(JSON.string("a\"\\\u{01}\t é ✓").serialized() == "\"a\\\"\\\\\\u0001\\t é ✓\"")
        let back = try JSON.parse(JSON.string("a\"\\\u{01}\t é ✓").serialized())
        #expect(back == .string("a\"\\\u{01}\t é ✓"))
    }

    @Test func keepsStringsWithNUL() throws {
        let value = try JSON.parse(#""a\u0000b""#)
        #expect(value == .string("a\u{0}b"))
    }

    @Test func settingNilRemovesAKey() {
        var object = JSONObject()
        object["a"] = 1
        object["b"] = 2
        object["a"] = nil
        #expect(JSON.object(object).serialized() == #"{"b":2}"#)
        object["a"] = .null
        #expect(JSON.object(object).serialized() == #"{"b":2,"a":null}"#)
    }

    @Test func reportsWhereTheTextIsBroken() {
        #expect(throws: JSONParseError.self) { try JSON.parse(#"{"a":"#) }
        #expect(throws: JSONParseError.self) { try JSON.parse("") }
    }

    @Test func comparesNumbersAndObjectsAsJSONDoes() throws {
        #expect(JSON.integer(1) == JSON.real(1.0))
        #expect(try JSON.parse(#"{"a":1,"b":2}"#) == JSON.parse(#"{"b":2,"a":1}"#))
    }
}
