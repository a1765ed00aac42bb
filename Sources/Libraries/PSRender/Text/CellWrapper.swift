import PSCore

/// The wrapping of table cells (Wrapper.wrap with `truncatingLongWords`), word by word: a word
/// longer than the width is shown on a line of its own cut short with "…", so no word is ever
/// split over two lines (text of wide characters, written without spaces, is still cut at the
/// width). Leading and trailing spaces of every line are dropped. Cells are short, so this
/// path keeps its simple tokens; Wrapper's one-pass filler serves all other text.
enum CellWrapper {
    private enum Token {
        case word([Span])
        case space(Span)
        case newline
    }

    public static func wrap(_ pieces: [InlinePiece], width: Int, truncatingLongWords: Bool = false) -> [StyledLine] {
        let width = max(1, width)
        var lines: [StyledLine] = []
        var line: StyledLine = []
        var lineWidth = 0
        var pendingSpaces: [Span] = []

        func endLine() {
            lines.append(line)
            line = []
            lineWidth = 0
            pendingSpaces = []
        }

        func place(_ word: [Span]) {
            let wordWidth = word.displayWidth
            if !line.isEmpty {
                let spaceWidth = pendingSpaces.displayWidth
                if lineWidth + spaceWidth + wordWidth <= width {
                    append(&line, pendingSpaces)
                    lineWidth += spaceWidth
                } else {
                    endLine()
                }
            }
            pendingSpaces = []
            if lineWidth + wordWidth <= width {
                append(&line, word)
                lineWidth += wordWidth
                return
            }
            if truncatingLongWords && !breaksAnywhere(word) {
                if !line.isEmpty { endLine() }
                append(&line, truncated(word, to: width))
                lineWidth = width
                return
            }
            // Longer than a whole line: cut it into line-sized pieces.
            for span in word {
                var chunk = String.UnicodeScalarView()
                for scalar in span.text.unicodeScalars {
                    let scalarWidth = DisplayWidth.of(scalar)
                    if lineWidth + scalarWidth > width && (lineWidth > 0 || !chunk.isEmpty) {
                        if !chunk.isEmpty { append(&line, [Span(String(chunk), span.style)]) }
                        chunk = String.UnicodeScalarView()
                        endLine()
                    }
                    chunk.append(scalar)
                    lineWidth += scalarWidth
                }
                if !chunk.isEmpty { append(&line, [Span(String(chunk), span.style)]) }
            }
        }

        for token in tokens(pieces) {
            switch token {
            case .word(let word): place(word)
            case .space(let space): if !line.isEmpty { pendingSpaces.append(space) }
            case .newline: endLine()
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// The widest word of `pieces`: the narrowest width that wraps them without cutting a word.
    public static func longestWord(_ pieces: [InlinePiece]) -> Int {
        tokens(pieces).reduce(0) { widest, token in
            if case .word(let word) = token { return max(widest, breaksAnywhere(word) ? 2 : word.displayWidth) }
            return widest
        }
    }

    /// Text of wide characters (Chinese, Japanese, Korean) is written without spaces and may
    /// break between any two of them.
    static func breaksAnywhere(_ word: [Span]) -> Bool {
        word.contains { span in span.text.unicodeScalars.contains { DisplayWidth.of($0) == 2 } }
    }

    /// A word cut to `width - 1` columns and "…" (in the style of its last kept span).
    static func truncated(_ word: [Span], to width: Int) -> [Span] {
        var kept: [Span] = []
        var used = 0
        outer: for span in word {
            var chunk = String.UnicodeScalarView()
            for scalar in span.text.unicodeScalars {
                let scalarWidth = DisplayWidth.of(scalar)
                if used + scalarWidth > width - 1 {
                    if !chunk.isEmpty { kept.append(Span(String(chunk), span.style)) }
                    break outer
                }
                chunk.append(scalar)
                used += scalarWidth
            }
            if !chunk.isEmpty { kept.append(Span(String(chunk), span.style)) }
        }
        let style = kept.last?.style ?? word.first?.style ?? TextStyle()
        var result: StyledLine = []
        append(&result, kept + [Span("…", style)])
        return result
    }

    /// Appends spans, merging a span into the previous one when the style is the same.
    static func append(_ line: inout StyledLine, _ spans: [Span]) {
        for span in spans where !span.text.isEmpty {
            if let last = line.last, last.style == span.style {
                line[line.count - 1].text += span.text
            } else {
                line.append(span)
            }
        }
    }

    private static func tokens(_ pieces: [InlinePiece]) -> [Token] {
        var tokens: [Token] = []
        var word: [Span] = []
        func endWord() {
            if !word.isEmpty { tokens.append(.word(word)) }
            word = []
        }
        for piece in pieces {
            switch piece {
            case .softBreak:
                endWord()
                tokens.append(.space(Span(" ")))
            case .hardBreak:
                endWord()
                tokens.append(.newline)
            case .text(let text, let style):
                // Spaces and newlines are single bytes in UTF-8: the words between them are cut
                // from the text's bytes (not at Character boundaries: a space may carry a
                // combining mark, "\r\n" is one Character), not rebuilt a scalar at a time.
                let bytes = text.utf8
                var start = bytes.startIndex
                var index = start
                while index < bytes.endIndex {
                    let byte = bytes[index]
                    if byte == 0x20 || byte == 0x0A {
                        if start < index { append(&word, [Span(String(decoding: bytes[start..<index], as: UTF8.self), style)]) }
                        endWord()
                        // Spaces keep the text's style, so a styled phrase is one run of escapes.
                        tokens.append(.space(Span(" ", style)))
                        start = bytes.index(after: index)
                    }
                    index = bytes.index(after: index)
                }
                if start < bytes.endIndex { append(&word, [Span(String(decoding: bytes[start...], as: UTF8.self), style)]) }
            }
        }
        endWord()
        return tokens
    }
}
