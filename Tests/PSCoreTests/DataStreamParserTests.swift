import Testing
@testable import PSCore

@Suite struct DataStreamParserTests {
    enum Item: Equatable {
        case line(code: String, value: JSON, text: String, lineNumber: Int)
        case malformed(lineNumber: Int, reason: String)
    }

    struct Outcome: Equatable {
        var items: [Item] = []
        var cutOff = false
    }

    static func parse(_ chunks: [[UInt8]]) -> Outcome {
        var parser = DataStreamParser()
        var outcome = Outcome()
        func collect(_ item: DataStreamParser.Item) {
            switch item {
            case .line(let line):
                outcome.items.append(.line(code: line.code, value: line.value,
                                           text: String(decoding: line.text, as: UTF8.self), lineNumber: line.lineNumber))
            case .malformed(let lineNumber, let reason):
                outcome.items.append(.malformed(lineNumber: lineNumber, reason: reason))
            }
        }
        // The test inputs are far under the cap: a throw here is a failure of the test.
        for chunk in chunks { try! chunk.withUnsafeBytes { try parser.feed($0, collect) } }
        outcome.cutOff = parser.finish(collect)
        return outcome
    }

    /// Whole, split at every byte boundary, and one byte at a time: all the same.
    static func parseEveryWay(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Outcome {
        let input = Array(text.utf8)
        let whole = parse([input])
        for split in 0...input.count {
            #expect(parse([Array(input[..<split]), Array(input[split...])]) == whole, "split at \(split)",
                    sourceLocation: sourceLocation)
        }
        #expect(parse(input.map { [$0] }) == whole, "byte by byte", sourceLocation: sourceLocation)
        return whole
    }

    @Test func decodesEachLineIntoCodeAndValue() {
        let outcome = Self.parseEveryWay(#"f:{"messageId":"m1"}"# + "\n" + #"0:"Hi"# + "\"\n" + #"9:{"toolCallId":"t","toolName":"x","args":{}}"#
            + "\n" + #"d:{"finishReason":"stop","usage":{"promptTokens":1}}"# + "\n")
        #expect(outcome.items == [
            .line(code: "f", value: ["messageId": "m1"], text: #"f:{"messageId":"m1"}"#, lineNumber: 1),
            .line(code: "0", value: "Hi", text: #"0:"Hi""#, lineNumber: 2),
            .line(code: "9", value: ["toolCallId": "t", "toolName": "x", "args": [:]],
                  text: #"9:{"toolCallId":"t","toolName":"x","args":{}}"#, lineNumber: 3),
            .line(code: "d", value: ["finishReason": "stop", "usage": ["promptTokens": 1]],
                  text: #"d:{"finishReason":"stop","usage":{"promptTokens":1}}"#, lineNumber: 4),
        ])
        #expect(!outcome.cutOff)
    }

    @Test func acceptsCRLFBlankLinesAndALeadingBOM() {
        let outcome = Self.parseEveryWay("\u{FEFF}0:\"a\"\r\n\r\n\n2:[1,2]\r\n")
        #expect(outcome.items == [
            .line(code: "0", value: "a", text: #"0:"a""#, lineNumber: 1),
            .line(code: "2", value: [1, 2], text: "2:[1,2]", lineNumber: 4),
        ])
    }

    @Test func reportsMalformedLinesWithTheirNumbersAndKeepsGoing() {
        let outcome = Self.parseEveryWay("0:\"a\"\nhello\nA:1\n0:{\"x\":\n:1\n0:\"b\"\n")
        #expect(outcome.items.count == 6)
        #expect(outcome.items.first == .line(code: "0", value: "a", text: #"0:"a""#, lineNumber: 1))
        #expect(outcome.items.last == .line(code: "0", value: "b", text: #"0:"b""#, lineNumber: 6))
        let malformed = outcome.items.compactMap { item -> Int? in
            if case .malformed(let number, _) = item { return number } else { return nil }
        }
        #expect(malformed == [2, 3, 4, 5])
        if case .malformed(_, let reason) = outcome.items[1] { #expect(reason.contains("\"hello\"")) }
        if case .malformed(_, let reason) = outcome.items[3] { #expect(reason.contains("not JSON after \"0:\"")) }
    }

    @Test func aLastLineWithoutLineEndIsParsedAndFlagged() {
        let outcome = Self.parseEveryWay("0:\"a\"\n0:\"b\"")
        #expect(outcome.items == [
            .line(code: "0", value: "a", text: #"0:"a""#, lineNumber: 1),
            .line(code: "0", value: "b", text: #"0:"b""#, lineNumber: 2),
        ])
        #expect(outcome.cutOff)
    }

    @Test func recognisesDataStreamLines() {
        func check(_ text: String) -> Bool { Array(text.utf8).withUnsafeBytes { DataStreamParser.isDataStreamLine($0) } }
        #expect(check(#"0:"Hi""#))
        #expect(check(#"f:{"messageId":"x"}"#))
        #expect(check("2:[]"))
        #expect(!check("data: {}"))
        #expect(!check("d:"))
        #expect(!check("0:not json"))
        #expect(!check("Z:1"))
        #expect(!check(": comment"))
        #expect(!check(""))
    }
}
