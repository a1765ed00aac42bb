/// The snippet of a long message, cut from the message's text with every match marked (FTS5's
/// `highlight()`, which reads the matches once): the words around the first match. FTS5's
/// `snippet()` scores a window at each match against every other match, time quadratic in the
/// matches of one row: a pasted log with 10,000 matches took a second, one with 70,000 a minute,
/// per hit. Short messages keep `snippet()`'s choice of the best window.
enum WindowSnippet {
    /// Messages whose record is longer than this many characters get a window snippet.
    static let longRecord = 16 * 1024
    /// Words in a window, as `snippet()` is asked for (16 tokens), and before the first match.
    static let words = 16
    static let wordsBefore = 4

    /// The window around the first match of the first of `columns` (highlighted texts) that has
    /// one, with "…" where the text goes on; a match cut by the window's end is closed.
    static func cut(_ columns: [String?]) -> String {
        let start = ArchiveHit.matchStart, end = ArchiveHit.matchEnd
        let texts = columns.compactMap { $0 }
        guard let text = texts.first(where: { $0.utf8.contains(0x02) }) ?? texts.first, !text.isEmpty else { return "" }
        let first = text.utf8.firstIndex(of: 0x02) ?? text.startIndex
        // Back to the start of the `wordsBefore`th word before the first match.
        var from = first, seen = 0
        while from > text.startIndex {
            let previous = text.index(before: from)
            if from != first, text[previous].isWhitespace, !text[from].isWhitespace {
                seen += 1
                if seen == wordsBefore { break }
            }
            from = previous
        }
        // Forward until `words` words have begun.
        var to = from, begun = 0, open = false
        while to < text.endIndex {
            let character = text[to]
            if character == start { open = true } else if character == end { open = false }
            let startsWord = !character.isWhitespace && character != start && character != end
                && (to == text.startIndex || isBoundary(text[text.index(before: to)]))
            if startsWord {
                begun += 1
                if begun > words { break }
            }
            to = text.index(after: to)
        }
        var window = String(text[from..<to])
        // A match that begins just where the window ends is left out.
        while let last = window.last, last.isWhitespace || last == start {
            if last == start { open = false }
            window.removeLast()
        }
        if open { window.append(end) }
        return (from > text.startIndex ? "…" : "") + window + (to < text.endIndex ? "…" : "")
    }

    private static func isBoundary(_ character: Character) -> Bool {
        character.isWhitespace || character == ArchiveHit.matchStart || character == ArchiveHit.matchEnd
    }
}
