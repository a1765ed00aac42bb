import PSCore

/// Cuts a long finished markdown text into pieces that parse to the same blocks as the whole, so
/// cmark never holds the tree of a whole long message (its nodes take many times the text's size).
///
/// A cut is made only before a line that cannot belong to the block above it: a line after a blank
/// line, starting in column 0 with a character that opens no list, quote, fence, table, HTML block
/// or indented code, outside any fenced code block. Texts that may have link reference definitions
/// or multi-paragraph HTML blocks (which reach across blank lines) are never cut.
enum MarkdownChunks {
    /// Pieces are at least this long (in UTF-8 bytes) before a cut is looked for.
    static let minimumLength = 64 * 1024

    static func split(_ text: String, minimumLength: Int = minimumLength) -> [Substring] {
        guard text.utf8.count > minimumLength, !mayReachAcrossBlankLines(text) else { return [text[...]] }
        var text = text
        let cuts = text.withUTF8 { cutOffsets($0, minimumLength: minimumLength) }
        var pieces: [Substring] = []
        var pieceStart = text.startIndex
        for cut in cuts {
            // A cut is after a newline: a scalar and Character boundary.
            let index = text.utf8.index(text.startIndex, offsetBy: cut)
            pieces.append(text[pieceStart..<index])
            pieceStart = index
        }
        pieces.append(text[pieceStart...])
        return pieces
    }

    /// The byte offsets of the lines each new piece starts with, found line by line (memchr).
    private static func cutOffsets(_ bytes: UnsafeBufferPointer<UInt8>, minimumLength: Int) -> [Int] {
        var cuts: [Int] = []
        var pieceStart = 0
        var fence: (character: UInt8, length: Int)?
        var previousBlank = false
        var lineStart = 0
        let count = bytes.count
        while lineStart < count {
            let lineEnd = ByteSearch.first(0x0A, in: UnsafeRawBufferPointer(bytes), from: lineStart) ?? count
            let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])
            let blank = isBlank(line[...])
            if let open = fence {
                if let close = fenceRun(line), close.character == open.character, close.length >= open.length,
                    isBlank(line.dropFirst(close.offset + close.length))
                {
                    fence = nil
                }
            } else if let run = fenceRun(line) {
                fence = (run.character, run.length)
            } else if previousBlank, let first = line.first, startsPlainBlock(first), lineStart - pieceStart >= minimumLength {
                cuts.append(lineStart)
                pieceStart = lineStart
            }
            previousBlank = blank
            lineStart = lineEnd + 1
        }
        return cuts
    }

    private static func isBlank(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// A line of ``` or ~~~ (3 or more) after up to 3 spaces: where it starts, its character and
    /// length.
    private static func fenceRun(_ line: UnsafeBufferPointer<UInt8>) -> (offset: Int, character: UInt8, length: Int)? {
        let indent = line.prefix { $0 == 0x20 }.count
        guard indent <= 3 else { return nil }
        let rest = line.dropFirst(indent)
        guard let character = rest.first, character == UInt8(ascii: "`") || character == UInt8(ascii: "~") else { return nil }
        let length = rest.prefix { $0 == character }.count
        return length >= 3 ? (indent, character, length) : nil
    }

    /// Letters and most punctuation start a paragraph or heading that nothing above can absorb
    /// after a blank line.
    private static func startsPlainBlock(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "#"): return true
        default: return byte >= 0x80
        }
    }

    /// Link reference definitions apply to the whole text; HTML blocks of kinds 1 to 5 end only
    /// at their closing marker, blank lines or not. One pass over the bytes: `]:`, or `<` before
    /// `!`, `?` or (in any ASCII case) `pre`, `script`, `style`, `textarea`. A false yes only costs
    /// speed: the text is then parsed whole, which gives the same output.
    static func mayReachAcrossBlankLines(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let count = bytes.count
            var index = 0
            while index < count - 1 {
                let byte = bytes[index]
                if byte == UInt8(ascii: "]") && bytes[index + 1] == UInt8(ascii: ":") { return true }
                if byte == UInt8(ascii: "<") && opensLongHTMLBlock(bytes, after: index) { return true }
                index += 1
            }
            return false
        }
    }

    private static let htmlOpenings: [[UInt8]] = ["pre", "script", "style", "textarea"].map { Array($0.utf8) }

    private static func opensLongHTMLBlock(_ bytes: UnsafeBufferPointer<UInt8>, after index: Int) -> Bool {
        let next = bytes[index + 1]
        if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") { return true }
        return htmlOpenings.contains { name in
            guard bytes.count - index - 1 >= name.count else { return false }
            for (offset, letter) in name.enumerated() where bytes[index + 1 + offset] | 0x20 != letter { return false }
            return true
        }
    }
}
