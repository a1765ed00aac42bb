import Testing
@testable import PSCore

/// Every input is parsed whole, split in two at every byte boundary, and fed one byte at a time;
/// all must give the same events, so no rule depends on where the reads happen to end.
@Suite struct SSEParserTests {
    struct Event: Equatable, CustomStringConvertible {
        var type = "message"
        var data: [UInt8]
        var id = ""
        var retry: Int64?

        init(type: String = "message", _ data: String, id: String = "", retry: Int64? = nil) {
            self.type = type
            self.data = Array(data.utf8)
            self.id = id
            self.retry = retry
        }

        init(_ event: SSEParser.Event) {
            type = event.type
            data = Array(event.data)
            id = event.lastEventId
            retry = event.retry
        }

        var description: String { "\(type) \(String(decoding: data, as: UTF8.self).debugDescription) id=\(id) retry=\(retry.map(String.init) ?? "-")" }
    }

    struct Outcome: Equatable {
        var events: [Event] = []
        var unterminated: SSEParser.UnterminatedEvent?
    }

    static func parse(_ chunks: [[UInt8]]) -> Outcome {
        var parser = SSEParser()
        var outcome = Outcome()
        for chunk in chunks {
            // The inputs are far under the cap: a throw here is a failure of the test.
            try! chunk.withUnsafeBytes { try parser.feed($0) { outcome.events.append(Event($0)) } }
        }
        outcome.unterminated = parser.finish()
        return outcome
    }

    /// Parses `input` every way it can be chunked, checks they agree, and returns the outcome.
    static func parseEveryWay(_ input: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Outcome {
        let whole = parse([input])
        for split in 0...input.count {
            let halves = parse([Array(input[..<split]), Array(input[split...])])
            #expect(halves == whole, "split at byte \(split) differs", sourceLocation: sourceLocation)
        }
        let bytes = parse(input.map { [$0] })
        #expect(bytes == whole, "one byte at a time differs", sourceLocation: sourceLocation)
        let withEmptyChunks = parse(input.flatMap { [[], [$0]] } + [[]])
        #expect(withEmptyChunks == whole, "empty reads in between differ", sourceLocation: sourceLocation)
        return whole
    }

    static func events(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [Event] {
        parseEveryWay(Array(text.utf8), sourceLocation: sourceLocation).events
    }

    // MARK: Lines

    @Test func parsesTheAISDKStream() throws {
        let stream = "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"text-delta\",\"id\":\"0\",\"delta\":\"Hi\"}\n\ndata: [DONE]\n\n"
        #expect(Self.events(stream) == [
            Event(#"{"type":"start"}"#), Event(#"{"type":"text-delta","id":"0","delta":"Hi"}"#), Event("[DONE]"),
        ])
    }

    @Test func acceptsCRLFAndCRAndLFLineEnds() throws {
        #expect(Self.events("data: a\r\n\r\n") == [Event("a")])
        #expect(Self.events("data: a\r\r") == [Event("a")])
        #expect(Self.events("data: a\n\n") == [Event("a")])
        #expect(Self.events("data: a\rdata: b\ndata: c\r\n\r\n") == [Event("a\nb\nc")])
        #expect(Self.events("data: a\n\r\ndata: b\r\n\n") == [Event("a"), Event("b")])
    }

    @Test func aCRThenLFIsOneLineEndEvenAcrossReads() throws {
        // Were the LF taken for a second line end, "a" and "b" would be two events.
        let outcome = Self.parse([Array("data: a\r".utf8), Array("\ndata: b\r".utf8), Array("\n\r".utf8), Array("\n".utf8)])
        #expect(outcome.events == [Event("a\nb")])
        #expect(Self.events("data: a\r\ndata: b\r\n\r\n") == [Event("a\nb")])
    }

    @Test func twoCRsAreTwoLineEnds() throws {
        #expect(Self.events("data: a\r\rdata: b\r\r") == [Event("a"), Event("b")])
    }

    // MARK: Byte order mark

    @Test func stripsOneLeadingByteOrderMark() throws {
        #expect(Self.events("\u{FEFF}data: a\n\n") == [Event("a")])
        // A second BOM is part of the first line's field name, which is then unknown.
        #expect(Self.events("\u{FEFF}\u{FEFF}data: a\n\ndata: b\n\n") == [Event("b")])
        // Only at the very start.
        #expect(Self.events("data: a\n\n\u{FEFF}data: b\n\n") == [Event("a")])
    }

    @Test func aPartialByteOrderMarkIsText() throws {
        let outcome = Self.parseEveryWay([0xEF, 0xBB] + Array("data: a\n\ndata: b\n\n".utf8))
        #expect(outcome.events == [Event("b")])
        #expect(Self.parseEveryWay([0xEF, 0xBB, 0x0A] + Array("data: c\n\n".utf8)).events == [Event("c")])
        #expect(Self.parseEveryWay([0xEF]).unterminated == SSEParser.UnterminatedEvent(line: 1))
    }

    // MARK: Fields

    @Test func ignoresComments() throws {
        #expect(Self.events(": hello\ndata: a\n:\ndata: b\n: bye\n\n") == [Event("a\nb")])
        #expect(Self.events(": keepalive\n\n: keepalive\n\n").isEmpty)
    }

    @Test func removesOnlyOneSpaceAfterTheColon() throws {
        #expect(Self.events("data:a\n\n") == [Event("a")])
        #expect(Self.events("data: a\n\n") == [Event("a")])
        #expect(Self.events("data:  a \n\n") == [Event(" a ")])
        #expect(Self.events("data:\ta\n\n") == [Event("\ta")])
        #expect(Self.events("data: a: b:c\n\n") == [Event("a: b:c")])
    }

    @Test func aLineWithoutColonIsAFieldWithAnEmptyValue() throws {
        #expect(Self.events("data\n\n") == [Event("")])
        #expect(Self.events("data\ndata\n\n") == [Event("\n")])
        #expect(Self.events("id: 5\ndata: a\n\nid\ndata: b\n\n") == [Event("a", id: "5"), Event("b", id: "")])
        #expect(Self.events("event: x\nevent\ndata: a\n\n") == [Event("a")])
    }

    @Test func joinsDataLinesAndRemovesOnlyTheLastNewline() throws {
        #expect(Self.events("data: a\ndata: b\ndata: c\n\n") == [Event("a\nb\nc")])
        #expect(Self.events("data: a\ndata:\n\n") == [Event("a\n")])
        #expect(Self.events("data:\n\n") == [Event("")])
        #expect(Self.events("data: \ndata: \n\n") == [Event("\n")])
    }

    @Test func namesEventsByTheLastEventField() throws {
        #expect(Self.events("event: token\ndata: a\n\n") == [Event(type: "token", "a")])
        #expect(Self.events("event: a\nevent: b\ndata: x\n\n") == [Event(type: "b", "x")])
        #expect(Self.events("event:\ndata: x\n\n") == [Event("x")])
        // The type does not carry over to the next event.
        #expect(Self.events("event: token\ndata: a\n\ndata: b\n\n") == [Event(type: "token", "a"), Event("b")])
    }

    @Test func fieldNamesAreCaseSensitiveAndUnknownOnesIgnored() throws {
        #expect(Self.events("Data: a\nDATA: b\nfoo: bar\n\n").isEmpty)
        #expect(Self.events("foo: bar\ndata: a\nevents: x\nid : 3\n\n") == [Event("a")])
    }

    // MARK: Dispatch

    @Test func dispatchesOnlyAtABlankLineAndOnlyWithData() throws {
        #expect(Self.events("event: x\n\nid: 1\n\nretry: 5\n\n").isEmpty)
        // A block without data resets the event type.
        #expect(Self.events("event: x\n\ndata: a\n\n") == [Event("a")])
        #expect(Self.events("\n\n\ndata: a\n\n\n\n") == [Event("a")])
    }

    @Test func theLastEventIdPersists() throws {
        #expect(Self.events("id: 1\ndata: a\n\ndata: b\n\nid: 2\n\ndata: c\n\n") == [
            Event("a", id: "1"), Event("b", id: "1"), Event("c", id: "2"),
        ])
        #expect(Self.events("data: a\nid: 7\n\n") == [Event("a", id: "7")])
        #expect(Self.events("id: 1\ndata: a\n\nid:\ndata: b\n\n") == [Event("a", id: "1"), Event("b", id: "")])
    }

    @Test func anIdContainingNULIsIgnored() throws {
        #expect(Self.events("id: 1\ndata: a\n\nid: 2\u{0}3\ndata: b\n\n") == [Event("a", id: "1"), Event("b", id: "1")])
    }

    @Test func retryCountsOnlyASCIIDigitsAndOnlyForItsOwnBlock() throws {
        #expect(Self.events("retry: 1500\ndata: a\n\ndata: b\n\n") == [Event("a", retry: 1500), Event("b")])
        #expect(Self.events("retry: 100\n\ndata: a\n\n") == [Event("a")])
        for bad in ["15a", "-1", "+1", " 1", "1.5", "", "99999999999999999999", "١٢"] {
            #expect(Self.events("retry: \(bad)\ndata: a\n\n") == [Event("a")], "retry: \(bad)")
        }
        #expect(Self.events("retry: 7\nretry: x\ndata: a\n\n") == [Event("a", retry: 7)])
        #expect(Self.events("retry\ndata: a\n\n") == [Event("a")])
    }

    // MARK: End of stream

    @Test func anUnterminatedFinalEventIsNotDispatched() throws {
        let cut = Self.parseEveryWay(Array("data: a\n\ndata: b\ndata: c\n".utf8))
        #expect(cut.events == [Event("a")])
        #expect(cut.unterminated == SSEParser.UnterminatedEvent(line: 3))

        let midLine = Self.parseEveryWay(Array("data: a\n\nid: 1\ndata: b".utf8))
        #expect(midLine.events == [Event("a")])
        #expect(midLine.unterminated == SSEParser.UnterminatedEvent(line: 3))

        let noNewlineAtAll = Self.parseEveryWay(Array("data: b".utf8))
        #expect(noNewlineAtAll.events.isEmpty)
        #expect(noNewlineAtAll.unterminated == SSEParser.UnterminatedEvent(line: 1))
    }

    @Test func aFinishedStreamHasNothingLeft() throws {
        #expect(Self.parseEveryWay(Array("data: a\n\n".utf8)).unterminated == nil)
        #expect(Self.parseEveryWay(Array("data: a\r\n\r\n: bye\n".utf8)).unterminated == nil)
        #expect(Self.parseEveryWay(Array("data: a\n\n: bye".utf8)).unterminated == nil)
        #expect(Self.parseEveryWay([]).unterminated == nil)
        #expect(Self.parseEveryWay(Array("\u{FEFF}".utf8)).unterminated == nil)
    }

    @Test func isReadyForAnotherStreamAfterFinish() throws {
        var parser = SSEParser()
        var events: [Event] = []
        try Array("id: 1\ndata: a".utf8).withUnsafeBytes { try parser.feed($0) { events.append(Event($0)) } }
        #expect(parser.finish() != nil)
        try Array("\u{FEFF}data: b\n\n".utf8).withUnsafeBytes { try parser.feed($0) { events.append(Event($0)) } }
        #expect(parser.finish() == nil)
        #expect(events == [Event("b")])
    }

    // MARK: Encoding

    @Test func invalidUTF8BecomesReplacementCharacters() throws {
        let input: [UInt8] = Array("event: t".utf8) + [0xFF] + Array("\nid: ".utf8) + [0xC3] + Array("\ndata: a".utf8)
            + [0xE2, 0x82] + Array("b\n\n".utf8)
        var strings: [(String, String, String)] = []
        var parser = SSEParser()
        try input.withUnsafeBytes { try parser.feed($0) { strings.append(($0.type, $0.lastEventId, $0.dataString)) } }
        #expect(strings.count == 1)
        #expect(strings.first?.0 == "t\u{FFFD}")
        #expect(strings.first?.1 == "\u{FFFD}")
        #expect(strings.first?.2 == "a\u{FFFD}b")
        // The bytes themselves are passed on unchanged, for whoever wants them.
        #expect(Self.parseEveryWay(input).events.first?.data == Array("a".utf8) + [0xE2, 0x82] + Array("b".utf8))
    }

    @Test func multiByteCharactersSurviveAnySplit() throws {
        #expect(Self.events("event: ✓\nid: é\ndata: 日本 🎉\n\n") == [Event(type: "✓", "日本 🎉", id: "é")])
    }

    @Test func keepsNULInData() throws {
        #expect(Self.events("data: a\u{0}b\n\n") == [Event("a\u{0}b")])
    }

    @Test func handlesLongLinesAcrossManyReads() throws {
        let long = String(repeating: "x", count: 200_000)
        var parser = SSEParser()
        var events: [Event] = []
        let input = Array("data: \(long)\ndata: \(long)\n\n".utf8)
        for start in stride(from: 0, to: input.count, by: 4096) {
            try input[start..<min(start + 4096, input.count)].withUnsafeBytes { try parser.feed($0) { events.append(Event($0)) } }
        }
        #expect(parser.finish() == nil)
        #expect(events == [Event(long + "\n" + long)])
    }

    // MARK: Bounded memory

    /// Feeds `head`, then `count` chunks of `filler`, then `tail`; returns the events and what
    /// the end of the stream found unfinished.
    static func held(_ head: String, filler: UInt8, count: Int, _ tail: String) -> (events: [Event], unterminated: SSEParser.UnterminatedEvent?) {
        var parser = SSEParser()
        var events: [Event] = []
        let chunk = [UInt8](repeating: filler, count: 64 * 1024)
        let chunks = [Array(head.utf8)] + Array(repeating: chunk, count: count) + [Array(tail.utf8)]
        for piece in chunks {
            try! piece.withUnsafeBytes { try parser.feed($0) { events.append(Event($0)) } }
        }
        return (events, parser.finish())
    }

    @Test func aLongCommentIsDroppedAsItComes() throws {
        let result = Self.held(": keep-alive ", filler: 0x78, count: 160, "\ndata: after\n\n")
        #expect(result.events == [Event("after")])
        #expect(result.unterminated == nil)
        // Split anywhere, a comment and an unknown field still mean what they meant.
        #expect(Self.events(": c\ndata: a\n\n:" + String(repeating: "z", count: 50) + "\nx-unknown: 1\n\n") == [Event("a")])
    }

    @Test func aLongUnknownFieldIsDroppedButStillOpensAnEvent() throws {
        let result = Self.held("comment-like-field: ", filler: 0x79, count: 160, "")
        #expect(result.events.isEmpty)
        #expect(result.unterminated == SSEParser.UnterminatedEvent(line: 1))
        let ended = Self.held("data: a\nunknownfield", filler: 0x79, count: 16, "\n\n")
        #expect(ended.events == [Event("a")])
    }

    @Test func aLongDataLineIsKept() throws {
        let result = Self.held("data: ", filler: 0x7A, count: 4, "\n\n")
        #expect(result.events == [Event(String(repeating: "z", count: 4 * 64 * 1024))])
    }
}
