import PSCore

/// Inline content ready for wrapping: styled text, and the two kinds of line break.
public enum InlinePiece: Equatable, Sendable {
    case text(String, TextStyle)
    /// A source line break inside a paragraph: a space that may become a wrap.
    case softBreak
    /// A forced line break.
    case hardBreak

    var isText: Bool {
        if case .text = self { return true }
        return false
    }
}

/// Greedy word wrapping by display width. Breaks only at spaces; a word longer than the width is
/// cut at the width (table cells: see CellWrapper). Leading and trailing spaces of every line are
/// dropped.
///
/// One pass over the pieces' UTF-8 bytes: a word is collected as bytes (spaces and newlines are
/// single bytes, so it is cut from the bytes, not at Character boundaries: a space may carry a
/// combining mark, "\r\n" is one Character), and a line's spans are made once, when their style
/// changes or the line ends.
public enum Wrapper {
    /// `truncatingLongWords` (table cells): a word longer than the width is cut short with "…"
    /// on a line of its own instead (CellWrapper).
    public static func wrap(_ pieces: [InlinePiece], width: Int, truncatingLongWords: Bool = false) -> [StyledLine] {
        if truncatingLongWords { return CellWrapper.wrap(pieces, width: width, truncatingLongWords: true) }
        var filler = LineFiller(width: max(1, width))
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .softBreak:
                filler.endWord()
                filler.space(filler.style(.plain))
            case .hardBreak:
                filler.endWord()
                filler.endLine()
            case .text(var text, let textStyle):
                let style = filler.style(textStyle)
                // Text ends its last word when a break or nothing comes next.
                let endsItsWord = index + 1 == pieces.count || !pieces[index + 1].isText
                text.withUTF8 { bytes in
                    var start = 0
                    for index in 0..<bytes.count where bytes[index] == 0x20 || bytes[index] == 0x0A {
                        if start < index {
                            filler.placeWord(UnsafeBufferPointer(rebasing: bytes[start..<index]), style)
                        } else {
                            filler.endWord()
                        }
                        // Spaces keep the text's style, so a styled phrase is one run of escapes.
                        filler.space(style)
                        start = index + 1
                    }
                    guard start < bytes.count else { return }
                    let last = UnsafeBufferPointer(rebasing: bytes[start...])
                    if endsItsWord { filler.placeWord(last, style) } else { filler.addToWord(last, style) }
                }
            }
        }
        filler.endWord()
        return filler.finish()
    }

    /// The widest word of `pieces`: the narrowest width that wraps them without cutting a word.
    public static func longestWord(_ pieces: [InlinePiece]) -> Int { CellWrapper.longestWord(pieces) }
}

/// The state of one wrap: the lines made, the line being filled, the spaces waiting to see whether
/// the next word fits after them, and the word being collected.
private struct LineFiller {
    let width: Int
    var lines: [StyledLine] = []
    /// The current line's spans before the last one, which is still growing in `open`.
    var line: StyledLine = []
    var open: [UInt8] = []
    var openStyle = 0
    var lineWidth = 0
    /// Styles of the spaces after the line's last word (each one column), from `spacesStart` on.
    var spaces: [Int] = []
    var spacesStart = 0
    /// The word being collected: its bytes from `wordStart` on, and where each run of one style
    /// ends in them, from run `runsStart` on. Words are not removed one by one: the buffers are
    /// emptied every `wordsKept` words.
    var word: [UInt8] = []
    var wordStart = 0
    var wordRuns: [(end: Int, style: Int)] = []
    var runsStart = 0
    var wordWidth = 0
    /// The styles of the pieces, by number (a piece in the style of the one before shares its
    /// number), so that runs compare and keep numbers, not styles.
    var styles: [TextStyle] = []

    static let wordsKept = 8

    /// The buffers get their room when first used, not here: a wrap is often one short line, and
    /// most words never go into `word` (placeWord).
    init(width: Int) {
        self.width = width
        styles.reserveCapacity(4)
        styles.append(.plain)
    }

    /// The number of `style`.
    mutating func style(_ style: TextStyle) -> Int {
        if styles[styles.count - 1] != style { styles.append(style) }
        return styles.count - 1
    }

    private func same(_ one: Int, _ other: Int) -> Bool {
        one == other || styles[one] == styles[other]
    }

    var lineIsEmpty: Bool { line.isEmpty && open.isEmpty }

    mutating func addToWord(_ bytes: UnsafeBufferPointer<UInt8>, _ style: Int) {
        if word.capacity == 0 {
            word.reserveCapacity(128)
            wordRuns.reserveCapacity(2 * Self.wordsKept)
        }
        wordWidth += Self.displayWidth(bytes)
        word.append(contentsOf: bytes)
        if wordRuns.count > runsStart, let last = wordRuns.last, same(last.style, style) {
            wordRuns[wordRuns.count - 1].end = word.count
        } else {
            wordRuns.append((word.count, style))
        }
    }

    mutating func space(_ style: Int) {
        guard !lineIsEmpty else { return }
        if spaces.capacity == 0 { spaces.reserveCapacity(2 * Self.wordsKept) }
        spaces.append(style)
    }

    var pendingSpaces: Int { spaces.count - spacesStart }

    mutating func dropPendingSpaces() {
        spacesStart = spaces.count
        if spacesStart > Self.wordsKept {
            spaces.removeAll(keepingCapacity: true)
            spacesStart = 0
        }
    }

    /// Adds `bytes` to the word and ends it: placed as endWord places a word collected, but
    /// without collecting it when it is all of the word (most words are within one piece).
    mutating func placeWord(_ bytes: UnsafeBufferPointer<UInt8>, _ style: Int) {
        let wordWidth = Self.displayWidth(bytes)
        // The rest of a word begun in an earlier piece, or one longer than a whole line (endWord
        // cuts it).
        guard wordRuns.count == runsStart, makeRoom(wordWidth) else {
            addToWord(bytes, style)
            return endWord()
        }
        emit(bytes, style)
        lineWidth += wordWidth
    }

    /// Places the word collected: after the pending spaces when it fits, else on a new line (cut
    /// into line-sized pieces when it is longer than a whole line).
    mutating func endWord() {
        guard wordRuns.count > runsStart else { return }
        defer {
            wordStart = word.count
            runsStart = wordRuns.count
            if runsStart > Self.wordsKept {
                word.removeAll(keepingCapacity: true)
                wordRuns.removeAll(keepingCapacity: true)
                wordStart = 0
                runsStart = 0
            }
            wordWidth = 0
        }
        if makeRoom(wordWidth) {
            word.withUnsafeBufferPointer { bytes in
                var start = wordStart
                for index in runsStart..<wordRuns.count {
                    let run = wordRuns[index]
                    emit(UnsafeBufferPointer(rebasing: bytes[start..<run.end]), run.style)
                    start = run.end
                }
            }
            lineWidth += wordWidth
            return
        }
        // Longer than a whole line: cut it into line-sized pieces, scalar by scalar.
        var start = wordStart
        for run in wordRuns[runsStart...] {
            let text = String(decoding: word[start..<run.end], as: UTF8.self)
            start = run.end
            var chunk = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                let scalarWidth = DisplayWidth.of(scalar)
                if lineWidth + scalarWidth > width && (lineWidth > 0 || !chunk.isEmpty) {
                    if !chunk.isEmpty { emit(String(chunk), run.style) }
                    chunk = String.UnicodeScalarView()
                    endLine()
                }
                chunk.append(scalar)
                lineWidth += scalarWidth
            }
            if !chunk.isEmpty { emit(String(chunk), run.style) }
        }
    }

    /// Makes room for a word `wordWidth` wide: the pending spaces before it when it fits after
    /// them, else a new line. Whether it fits now (false: it is longer than a whole line).
    private mutating func makeRoom(_ wordWidth: Int) -> Bool {
        if !lineIsEmpty {
            if lineWidth + pendingSpaces + wordWidth <= width {
                // By index, not over a slice (which retains and releases the array each time).
                for index in spacesStart..<spaces.count { emit(0x20, spaces[index]) }
                lineWidth += pendingSpaces
            } else {
                endLine()
            }
        }
        dropPendingSpaces()
        return lineWidth + wordWidth <= width
    }

    mutating func endLine() {
        closeSpan()
        if lines.isEmpty { lines.reserveCapacity(4) }
        lines.append(line)
        line = []
        lineWidth = 0
        dropPendingSpaces()
    }

    mutating func finish() -> [StyledLine] {
        closeSpan()
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// Adds text to the line, to its last span when the style is the same.
    private mutating func emit(_ bytes: UnsafeBufferPointer<UInt8>, _ style: Int) {
        guard !bytes.isEmpty else { return }
        if open.capacity == 0 { open.reserveCapacity(128) }
        startSpan(style)
        open.append(contentsOf: bytes)
    }

    private mutating func emit(_ byte: UInt8, _ style: Int) {
        startSpan(style)
        open.append(byte)
    }

    private mutating func emit(_ text: String, _ style: Int) {
        startSpan(style)
        open.append(contentsOf: text.utf8)
    }

    private mutating func startSpan(_ style: Int) {
        guard open.isEmpty || !same(openStyle, style) else { return }
        closeSpan()
        openStyle = style
    }

    private mutating func closeSpan() {
        guard !open.isEmpty else { return }
        // Room for a few spans at once (most lines have one to four), not grown one by one.
        if line.isEmpty { line.reserveCapacity(4) }
        line.append(Span(String(decoding: open, as: UTF8.self), styles[openStyle]))
        open.removeAll(keepingCapacity: true)
    }

    /// As `DisplayWidth.of`, from the bytes: ASCII without decoding.
    private static func displayWidth(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var width = 0
        for byte in bytes {
            guard byte < 0x80 else { return DisplayWidth.of(String(decoding: bytes, as: UTF8.self)) }
            if byte >= 0x20 && byte != 0x7F { width += 1 }
        }
        return width
    }
}
