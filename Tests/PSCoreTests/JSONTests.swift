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

    @Test func keepsNumbersBeyondInt64AndDoubleAsTheirText() throws {
        let text = #"{"big":123456789012345678901234567890,"neg":-9223372036854775809,"huge":1e400,"tiny":-2.5E-400,"#
            + #""list":[1E+999,0.1,-9223372036854775808,9223372036854775807,0e-999,1.0e-400]}"#
        let value = try JSON.parse(text)
        #expect(value["big"] == .number("123456789012345678901234567890"))
        #expect(value["neg"] == .number("-9223372036854775809"))
        #expect(value["huge"] == .number("1e400"))
        #expect(value["tiny"] == .number("-2.5E-400"))
        #expect(value["list"] == [.number("1E+999"), .real(0.1), .integer(.min), .integer(.max), .real(0), .number("1.0e-400")])
        #expect(value.serialized() == text.replacing("0e-999", with: "0"))
    }

    @Test func numbersKeptAsTextCompareByTheirText() throws {
        #expect(JSON.number("1e400") == JSON.number("1e400"))
        #expect(JSON.number("1e400") != JSON.number("1E400"))
        #expect(JSON.number("1e400") != JSON.real(.infinity))
        #expect(JSON.number("1e400").doubleValue == .infinity)
    }

    @Test func reportsTheLineAndColumnOfTheFault() {
        do {
            _ = try JSON.parse("{\n  \"a\": tru }")
            Issue.record("parsed")
        } catch let error as JSONParseError {
            #expect(error.line == 2)
            #expect(error.column == 10)  // jansson's: just after the token it could not read
        } catch {
            Issue.record("\(error)")
        }
        #expect((try? JSON.parse("[1,\n2,]")) == nil)
    }
}
