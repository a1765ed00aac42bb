/// The lines of a text that grows at its end, for the markdown format (the text's own lines):
/// each complete line is cut out and cleaned once, not again for every delta.
final class TranscriptLines {
    /// UTF-8 offset just past the last newline already taken in.
    private var scannedBytes = 0
    /// Complete lines, without the blank lines the text starts with.
    private var lines: [StyledLine] = []
    /// Blank complete lines at the start (dropped) while nothing else came yet.
    private var sawContent = false
    /// Blank lines at the end of `lines`: final only once something follows them.
    private var trailingBlank = 0
    /// The text's headings, moved below the turn heading.
    private var headings = TranscriptHeadings(shift: TranscriptPartRenderer.turnHeadingLevel)

    /// What `TranscriptPartRenderer.source(text, finished: false)` gives, from the new text only,
    /// without its first `skip` lines (at most the `settled` lines of the previous render).
    func render(_ text: String, skip: Int = 0) -> RenderedBlock {
        let bytes = text.utf8
        if bytes.count < scannedBytes {
            // Not the text seen before with more appended: start over.
            (scannedBytes, lines, sawContent, trailingBlank) = (0, [], false, 0)
            headings = TranscriptHeadings(shift: TranscriptPartRenderer.turnHeadingLevel)
        }
        var start = bytes.index(bytes.startIndex, offsetBy: scannedBytes)
        if let newline = Self.lastLineEnd(bytes[start...]) {
            for line in text[start..<newline].split(separator: "\n", omittingEmptySubsequences: false) {
                for settled in headings.take(String(line).withoutControlCharacters) { take(settled) }
            }
            start = bytes.index(after: newline)
            scannedBytes = bytes.distance(from: bytes.startIndex, to: start)
        }
        let partial = String(text[start...]).withoutControlCharacters
        // A paragraph's lines wait for its end (a setext underline would make them a heading).
        let held = headings.held.map(Self.styled)
        guard sawContent else {
            // Only blank lines so far: they are dropped, and nothing is final yet.
            let last = held.isEmpty && Self.isBlank(partial) ? [] : [Self.styled(partial)]
            return RenderedBlock(lines: held + last, stable: 0, pending: true)
        }
        let skipped = min(skip, lines.count)
        var block = RenderedBlock(
            lines: Array(lines[skipped...]) + held + [Self.styled(partial)],
            stable: max(0, lines.count - trailingBlank - skipped), pending: true)
        block.settled = lines.count - trailingBlank
        return block.dropping(skip - skipped)
    }

    private func take(_ line: String) {
        let blank = Self.isBlank(line)
        if !sawContent && blank { return }
        sawContent = true
        lines.append(Self.styled(line))
        trailingBlank = blank ? trailingBlank + 1 : 0
    }

    /// The last newline that ends a line. As in a split of the Characters, a CR LF pair is one
    /// character and no line end (the byte before the region is the newline that ended a line).
    static func lastLineEnd(_ bytes: Substring.UTF8View) -> String.Index? {
        var index = bytes.endIndex
        while index > bytes.startIndex {
            index = bytes.index(before: index)
            guard bytes[index] == 0x0A else { continue }
            if index > bytes.startIndex && bytes[bytes.index(before: index)] == 0x0D { continue }
            return index
        }
        return nil
    }

    static func isBlank(_ line: String) -> Bool { line.allSatisfy { $0 == " " } }

    static func styled(_ line: String) -> StyledLine { line.isEmpty ? [] : [Span(line)] }
}
