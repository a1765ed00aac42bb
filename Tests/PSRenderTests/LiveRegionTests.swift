import Testing
@testable import PSRender

/// The live region's frames: one write each, erasing exactly the rows it drew.
@Suite struct LiveRegionTests {
    final class Screen { var writes: [String] = [] }

    static func region(rows: Int = 5, columns: Int = 10) -> (LiveRegion, Screen) {
        let screen = Screen()
        let region = LiveRegion(size: .init(columns: columns, rows: rows), ansi: false) { screen.writes.append($0) }
        return (region, screen)
    }

    @Test func aFrameErasesWhatTheLastOneDrew() throws {
        let (region, screen) = Self.region()
        try region.show([[Span("one")], [Span("two")], [Span("three")]])
        region.append("done\n")
        try region.show([[Span("four")]])
        #expect(screen.writes.count == 2)
        #expect(screen.writes[0].contains("one\r\ntwo\r\nthree"))
        // Back to the region's first row (two up from its last), erase below, then the finished line.
        #expect(screen.writes[1].hasPrefix("\r\u{1B}[2A\u{1B}[J" + "done\n"))
        #expect(screen.writes[1].contains("four"))
    }

    @Test func nothingChangedWritesNothing() throws {
        let (region, screen) = Self.region()
        try region.show([[Span("same")]])
        try region.show([[Span("same")]])
        #expect(screen.writes.count == 1)
        try region.show([])
        #expect(screen.writes.last == "\r\u{1B}[J")
    }

    @Test func aTallBlockShowsItsLastRowsCutToTheWidth() throws {
        let (region, screen) = Self.region(rows: 4, columns: 6)
        try region.show((1...9).map { [Span("line \($0) is long")] })
        let frame = try #require(screen.writes.last)
        #expect(!frame.contains("line 6"))
        #expect(frame.contains("line 7\r\nline 8\r\nline 9"))
        #expect(!frame.contains("is long"))
        // Line wrap is off while the region is drawn, and on again at its end.
        #expect(frame.contains("\u{1B}[?7l") && frame.hasSuffix("\u{1B}[?7h\u{1B}[?2026l"))
    }
}
