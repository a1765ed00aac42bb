import Foundation
import Testing
@testable import PSCore

/// The cap on one line or event (InputLimits) in each parser that holds them.
@Suite struct InputLimitsTests {
    static let small = InputLimits(maxRecordBytes: 16)

    static func feed(_ splitter: inout LineSplitter, _ text: String) throws -> [String] {
        var lines: [String] = []
        try Array(text.utf8).withUnsafeBytes { try splitter.feed($0) { lines.append(String(decoding: $0, as: UTF8.self)) ; _ = $1 } }
        return lines
    }

    @Test func lineSplitterRefusesALineOverTheCapWholeOrInPieces() throws {
        var splitter = LineSplitter(limits: Self.small)
        #expect(try Self.feed(&splitter, "exactly sixteen!\nshort\n") == ["exactly sixteen!", "short"])
        #expect(throws: RecordTooLong(.line, number: 3, limits: Self.small)) {
            try Self.feed(&splitter, "seventeen bytes!!\n")
        }
        var pieces = LineSplitter(limits: Self.small)
        _ = try Self.feed(&pieces, "ok\n0123456789")
        #expect(throws: RecordTooLong(.line, number: 2, limits: Self.small)) { try Self.feed(&pieces, "0123456") }
    }

    static func events(_ parser: inout SSEParser, _ text: String) throws -> [String] {
        var events: [String] = []
        try Array(text.utf8).withUnsafeBytes { try parser.feed($0) { events.append($0.dataString) } }
        return events
    }

    @Test func sseParserCapsALineAndAnEventsData() throws {
        var parser = SSEParser(limits: Self.small)
        #expect(try Self.events(&parser, "data: 0123456789\n\n") == ["0123456789"])
        #expect(throws: RecordTooLong(.line, number: 3, limits: Self.small)) {
            try Self.events(&parser, "data: 0123456789ab")  // held, unfinished
        }
        var lines = SSEParser(limits: Self.small)
        #expect(throws: RecordTooLong(.event, number: 1, limits: Self.small)) {
            try Self.events(&lines, "data: 0123\ndata: 4567\ndata: 89ab\ndata: cdef\n")
        }
        // A comment or an unknown field is dropped as it comes: it is never held, so never capped.
        var comments = SSEParser(limits: Self.small)
        #expect(try Self.events(&comments, ": " + String(repeating: "x", count: 100) + "\ndata: y\n\n") == ["y"])
    }

    @Test func theMessageNamesTheInputTheLineAndTheFlag() {
        let error = RecordTooLong(.line, number: 7, limits: InputLimits(mebibytes: 64)).inputError("in.ndjson")
        #expect(error.status == .malformedInput)
        #expect(error.message == "in.ndjson: line 7 is longer than 64 MiB (raise with --max-record-size MiB or PS_MAX_RECORD_MIB)")
        #expect(RecordTooLong(.event, number: 2, limits: Self.small).serverError().status == .serverError)
    }

    @Test func duplicateKeysAreNotJSONWeRead() {
        #expect(throws: JSONParseError.self) { try JSON.parse(#"{"type":"text-delta","delta":"x","type":"finish"}"#) }
        #expect(throws: JSONParseError.self) { try JSON.parse(#"{"a":{"b":1,"b":2}}"#) }
        // The same through the path for numbers jansson cannot hold.
        #expect(throws: JSONParseError.self) { try JSON.parse(#"{"n":123456789012345678901234567890,"n":1}"#) }
        #expect((try? JSON.parse(#"{"a":1,"b":{"a":2}}"#)) != nil)
    }

    @Test func theTextDeltaFastPathTakesNoDuplicateEither() {
        let line = #"{"event":"message","id":"","data":{"type":"text-delta","id":"t","delta":"x","type":"finish"}}"#
        #expect(Array(line.utf8).withUnsafeBytes { TextDeltaRecord.match($0) } == nil)
        let twice = #"{"event":"message","id":"","event":"message","data":{"type":"text-delta","id":"t","delta":"x"}}"#
        #expect(Array(twice.utf8).withUnsafeBytes { TextDeltaRecord.match($0) } == nil)
    }
}
