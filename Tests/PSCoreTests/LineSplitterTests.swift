import Testing
@testable import PSCore

/// Lines split across chunks of any size come out whole; a long line's start is gathered in one
/// buffer (grown in place), and a splitter stays a value.
@Suite struct LineSplitterTests {
    static func lines(_ chunks: [String], _ splitter: inout LineSplitter) throws -> [String] {
        var lines: [String] = []
        for chunk in chunks {
            try Array(chunk.utf8).withUnsafeBytes { bytes in
                try splitter.feed(bytes) { line, _ in lines.append(String(decoding: line, as: UTF8.self)) }
            }
        }
        splitter.finish { line, _ in lines.append(String(decoding: line, as: UTF8.self)) }
        return lines
    }

    @Test func gathersLongLinesFromManyChunks() throws {
        let long = String(repeating: "0123456789", count: 300_000)
        let text = "short\n" + long + "\n\nlast " + long
        var chunks: [String] = []
        var rest = Substring(text)
        var size = 1
        while !rest.isEmpty {
            chunks.append(String(rest.prefix(size)))
            rest = rest.dropFirst(size)
            size = size * 3 % 70_001 + 1
        }
        var splitter = LineSplitter()
        #expect(try Self.lines(chunks, &splitter) == ["short", long, "", "last " + long])
    }

    @Test func aCopyKeepsItsOwnStartOfALine() throws {
        var first = LineSplitter()
        try Array("abc".utf8).withUnsafeBytes { try first.feed($0) { _, _ in } }
        var second = first
        #expect(try Self.lines(["def\n"], &first) == ["abcdef"])
        #expect(try Self.lines(["xyz\n"], &second) == ["abcxyz"])
    }
}
