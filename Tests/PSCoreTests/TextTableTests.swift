import Testing
@testable import PSCore

/// The one table writer of the commands: too wide a table is narrowed, and a cell that does
/// not fit is cut with "…", never wrapped (so never a word split over two lines).
@Suite struct TextTableTests {
    @Test func aCellIsCutWithAnEllipsisInTerminalColumns() {
        #expect(TextTable.truncate("unlimited", toWidth: 9) == "unlimited")
        #expect(TextTable.truncate("unlimited", toWidth: 6) == "unlim…")
        #expect(TextTable.truncate("日本語の題名", toWidth: 7) == "日本語…")  // two columns each
        #expect(TextTable.truncate("e\u{301}te\u{301}", toWidth: 2) == "e\u{301}…")  // the mark stays on its letter
        #expect(TextTable.truncate("abc", toWidth: 0) == "")
    }

    @Test func aNarrowTableCutsTheFreeTextFirstAndKeepsEveryLineInTheWidth() {
        var table = TextTable(headers: ["ID", "PLAN", "NOTE"])
        table.add(["key_0123456789", "unlimited", "renews every month unless it is cancelled before the end"])
        table.add(["key_2", "free", "日本語のメモ、とても長い説明がここに続きます"])
        let out = table.render(width: 40, empty: "")
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 40 }, "\(lines)")
        // The ids and the short column whole; the note cut, with "…".
        #expect(lines[1].hasPrefix("key_0123456789  unlimited  renews"))
        #expect(lines[1].hasSuffix("…") && lines[2].hasSuffix("…"))
        // Wide enough: nothing cut.
        let wide = table.render(width: 200, empty: "")
        #expect(!wide.contains("…") && wide.contains("before the end\n"))
    }

    @Test func whenTheFreeTextIsNotEnoughTheWidestOtherColumnsShrinkToo() {
        var table = TextTable(headers: ["ID", "NAME", "TITLE"])
        table.add([String(repeating: "x", count: 30), "a rather long name here", "title"])
        let lines = table.render(width: 40, empty: "").split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 40 }, "\(lines)")
        #expect(lines[1].contains("…"))
        #expect(lines[1].hasSuffix("title"))  // the last column kept its 10 columns' floor
    }

    @Test func emptyColumnsCanBeLeftOutAndCountsAlignRight() {
        var table = TextTable(headers: ["ID", "CREATED", "MSGS"])
        table.hidesEmptyColumns = true
        table.rightAligned = [2]
        table.add(["a", "", "7"])
        table.add(["b", "", "12"])
        #expect(table.render(width: 80, empty: "none\n") == "ID  MSGS\na      7\nb     12\n")
        #expect(TextTable(headers: ["ID"]).render(width: 80, empty: "none\n") == "none\n")
    }
}
