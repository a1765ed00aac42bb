import PSCore
import Testing

@Suite struct TerminalSafeTextTests {
    @Test func controlsBecomeVisibleAndNewlinesAndTabsStay() {
        #expect(TerminalSafeText.sanitize("a\u{1B}[2Jb\u{07}c\u{7F}") == "a\u{241B}[2Jb\u{2407}c\u{2421}")
        #expect(TerminalSafeText.sanitize("line\nnext\tcell") == "line\nnext\tcell")
        #expect(TerminalSafeText.sanitize("\u{9B}31m\u{202E}x\u{2066}") == "<U+009B>31m<U+202E>x<U+2066>")
        #expect(TerminalSafeText.sanitize("plain é 漢字 🙂") == "plain é 漢字 🙂")
    }

    /// The check agrees with the scalar definition for every scalar near the unsafe ranges
    /// (alone and between other text), and for newline and tab in both modes.
    @Test func checkAgreesWithTheScalars() {
        let values = Array(0..<0x800) + Array(0x2000..<0x2100) + [0xFFFD, 0x1F600, 0x10FFFF]
        for value in values {
            guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
            let lineBreak = scalar == "\n" || scalar == "\t"
            for text in [String(scalar), "a\(scalar)b", "日\(scalar)", "\(scalar)\u{301}"] {
                #expect(TerminalSafeText.isSafe(text) == !TerminalSafeText.isUnsafe(scalar), "U+\(String(value, radix: 16))")
                #expect(TerminalSafeText.isSafe(text, allowingLineBreaks: false) == !(TerminalSafeText.isUnsafe(scalar) || lineBreak))
            }
        }
    }

    /// Random texts of safe and unsafe scalars, newlines and tabs among them (several in one
    /// word, the unsafe one after a newline): the check agrees with the scalars.
    @Test func checkAgreesOnRandomMixtures() {
        let pool: [Unicode.Scalar] = ["a", " ", "\n", "\t", "é", "日", "—", "\u{A0}", "\u{9B}", "\u{1B}", "\u{7F}", "\u{202E}", "\u{2069}",
                                      "\u{2028}", "🙂", "\u{0}", "\r"]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let scalars = (0..<Int.random(in: 0...40, using: &random)).map { _ in pool.randomElement(using: &random)! }
            let text = String(String.UnicodeScalarView(scalars))
            let unsafe = scalars.contains(where: TerminalSafeText.isUnsafe)
            #expect(TerminalSafeText.isSafe(text) == !unsafe, "\(scalars.map(\.value))")
            #expect(TerminalSafeText.isSafe(text, allowingLineBreaks: false) == !(unsafe || scalars.contains { $0 == "\n" || $0 == "\t" }))
        }
    }

    @Test func sanitisingInPiecesEqualsSanitisingWhole() {
        let text = "a\u{1B}]52;c;QUJD\u{07}b\u{9B}c"
        let scalars = Array(text.unicodeScalars)
        for cut in 0...scalars.count {
            let head = String(String.UnicodeScalarView(scalars[..<cut]))
            let tail = String(String.UnicodeScalarView(scalars[cut...]))
            #expect(TerminalSafeText.sanitize(head) + TerminalSafeText.sanitize(tail) == TerminalSafeText.sanitize(text))
        }
    }

    @Test func linkTargetsAreValidatedAndEncoded() {
        #expect(TerminalSafeText.linkTarget("https://example.com/a?b=c#d") == "https://example.com/a?b=c#d")
        #expect(TerminalSafeText.linkTarget("https://example.com/a b/é") == "https://example.com/a%20b/%C3%A9")
        #expect(TerminalSafeText.linkTarget("http://x/\u{1B}\\evil") == nil)
        #expect(TerminalSafeText.linkTarget("http://x/\u{07}") == nil)
        #expect(TerminalSafeText.linkTarget("http://x/\u{9C}") == nil)
        #expect(TerminalSafeText.linkTarget("http://x/\u{202E}") == nil)
        #expect(TerminalSafeText.linkTarget("") == nil)
        #expect(TerminalSafeText.linkTarget("http://x/" + String(repeating: "a", count: 5000)) == nil)
    }

    @Test func everyStringOfAJSONValueIsSanitised() {
        let value: JSON = ["k\u{1B}": ["\u{07}", 1, ["x": "\u{9B}"]]]
        #expect(value.terminalSafe == ["k\u{241B}": ["\u{2407}", 1, ["x": "<U+009B>"]]])
    }

    @Test func widthsAreClamped() {
        #expect(Terminal.width(fd: -1, environment: ["COLUMNS": "99999999999"]) == 1000)
        #expect(Terminal.width(fd: -1, environment: ["COLUMNS": "99999999999999999999999"]) == 1000)
        #expect(Terminal.width(fd: -1, environment: ["COLUMNS": "3"]) == 10)
        #expect(Terminal.width(fd: -1, environment: ["COLUMNS": "120"]) == 120)
        #expect(Terminal.width(fd: -1, environment: ["COLUMNS": "-5"]) == 80)
        #expect(Terminal.width(fd: -1, environment: ["COLUMNS": "wide"]) == 80)
        #expect(Terminal.width(fd: -1, environment: ["COLUMNS": "0"]) == 80)
    }
}
