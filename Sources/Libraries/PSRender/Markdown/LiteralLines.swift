/// The lines of a block's literal text as cmark gives it: each line ends in "\n", except perhaps
/// the last, and the newline at the very end ends the last line rather than starting an empty
/// one. Split on the byte, not on Characters (a String's split tests every grapheme: a code
/// block's lines took five times as long to find as to colour).
enum LiteralLines {
    /// The byte ranges of the lines of `bytes`, without their newlines.
    static func ranges(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for index in 0..<bytes.count where bytes[index] == 0x0A {
            ranges.append(start..<index)
            start = index + 1
        }
        if start < bytes.count { ranges.append(start..<bytes.count) }
        return ranges
    }

    /// The lines of `literal`, as Strings.
    static func strings(_ literal: String) -> [String] {
        var literal = literal
        return literal.withUTF8 { bytes in
            ranges(bytes).map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
        }
    }
}
