import Testing
import PSCore
@testable import PSRender

@Suite struct DisplayWidthTests {
    @Test func asciiTakesOneColumnEach() {
        #expect(DisplayWidth.of("hello") == 5)
    }

    @Test func cjkTakesTwoColumns() {
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("한국") == 4)
        #expect(DisplayWidth.of("ｆｕｌｌ") == 8)
    }

    @Test func combiningMarksTakeNone() {
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("a\u{200D}b") == 2)
    }

    @Test func emojiTakeTwo() {
        #expect(DisplayWidth.of("🙂") == 2)
    }
}
