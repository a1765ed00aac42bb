import PSCore

/// Renders a markdown text that grows at its end, without going over the finished part again.
///
/// Top-level blocks that are final and followed by another block are committed: their lines are
/// kept, and their text is never parsed again. Each render parses only the text from the first
/// uncommitted block on. That suffix renders alone as it does in the whole document because a
/// top-level block begins with every container closed, and later text cannot reach back into a
/// block that another block follows. The one thing that carries across blocks is a link
/// reference definition, so text that may hold one (`]:`) is never committed: it stays in the
/// parsed suffix, where it still defines its label for everything after it.
///
/// Committed lines the caller has frozen are let go (`release`): what is kept is the open block
/// and the lines committed since, not the message.
final class MarkdownStream {
    /// Set again before each render: a terminal's width can change while the text grows (the
    /// committed lines keep the width they were made with; they are on the screen already).
    var renderer: MarkdownRenderer
    /// UTF-8 offset in the text where the first uncommitted block starts.
    private(set) var committedBytes = 0
    /// How many lines the committed blocks have, blank lines between them included.
    private(set) var committedCount = 0
    /// The first `released` of them are let go: the caller has them and never asks again.
    private(set) var released = 0
    /// The committed lines from line `released` on.
    private var committedLines: [StyledLine] = []
    /// Bytes handed to the markdown parser by the last render (to test that work stays bounded).
    private(set) var lastParsedBytes = 0

    init(renderer: MarkdownRenderer) {
        self.renderer = renderer
    }

    /// Renders the whole text, which must be the text of the previous call with more appended,
    /// leaving out its first `skip` lines: at most the `settled` lines of the previous render,
    /// which the caller has already. The work is bounded by the blocks after those, not the text.
    func render(_ text: String, skip: Int = 0) -> RenderedBlock {
        if skip < released { reset() }
        let bytes = text.utf8
        guard bytes.count >= committedBytes else { return renderer.render(text, growing: true).dropping(skip) }
        let start = bytes.index(bytes.startIndex, offsetBy: committedBytes)
        // Only complete lines count while the text grows (see MarkdownRenderer.render).
        guard let newline = bytes[start...].lastIndex(of: 0x0A) else {
            lastParsedBytes = 0
            return committed(skip: skip, suffix: RenderedBlock())
        }
        let suffixText = String(text[start...newline])
        lastParsedBytes = suffixText.utf8.count
        let document = MarkdownParser.parse(suffixText)
        let blocks = BlockRenderer(ansi: renderer.ansi, base: renderer.base, growth: GrowthState(text: suffixText, growing: true))
        var suffix = RenderedBlock()
        /// Blocks of the suffix that are final and followed by another, and their lines.
        var commit: (blocks: Int, lines: Int)?
        for (index, child) in document.children.enumerated() {
            let isLast = index == document.children.count - 1
            let block = blocks.render(child, width: renderer.width, open: isLast)
            // Everything so far is final, and this block follows: all before it can be committed.
            if suffix.isFinal && index > 0 { commit = (index, suffix.lines.count) }
            suffix.append(block, separator: [[]])
        }
        var result = committed(skip: skip, suffix: suffix)
        if let commit { self.commit(commit.blocks, of: document, lines: suffix.lines[..<commit.lines], suffix: suffixText) }
        result.settled = committedCount
        return result
    }

    /// The caller has frozen the first `count` lines (at most the `settled` of a render): they are
    /// let go, and no later call leaves out fewer.
    func release(upTo count: Int) {
        let drop = min(count, committedCount) - released
        guard drop > 0 else { return }
        committedLines.removeFirst(drop)
        released += drop
    }

    /// Back to nothing committed: asked for lines that were let go, the text is rendered again.
    private func reset() {
        committedBytes = 0
        committedCount = 0
        released = 0
        committedLines = []
    }

    /// The text is finished: its committed lines, then the rest rendered as a finished text, from
    /// line `skip` on. The same lines as rendering it whole (the suffix after committed blocks
    /// renders alone as it does in the whole text), without going over the committed blocks again.
    func finish(_ text: String, skip: Int = 0) -> RenderedBlock {
        let (sink, lines) = LineSink.collecting()
        finish(text, skip: skip, into: sink)
        var result = RenderedBlock.final(lines())
        result.settled = committedCount
        return result
    }

    /// `finish`, its lines given to `sink` block by block as they are made.
    func finish(_ text: String, skip: Int, into sink: LineSink) {
        let bytes = text.utf8
        if skip < released || bytes.count < committedBytes { reset() }
        let out = sink.skipping(skip - released)
        out.take(committedLines)
        let suffixText = committedBytes == 0 ? text : String(text[bytes.index(bytes.startIndex, offsetBy: committedBytes)...])
        lastParsedBytes = suffixText.utf8.count
        // A blank line between the committed lines and the rest, once the rest has a line.
        var separated = committedCount == 0
        renderer.render(suffixText, into: LineSink { line in
            if !separated {
                out.take([])
                separated = true
            }
            out.take(line)
        })
    }

    /// What the text looks like now, its last line included before its newline comes: for a live
    /// display, where a word shows as it arrives. Nothing is committed, nothing counts as final;
    /// from line `skip` on, as `render`, and the work is bounded the same way.
    func preview(_ text: String, skip: Int = 0) -> RenderedBlock {
        if skip < released { reset() }
        let bytes = text.utf8
        guard bytes.count >= committedBytes else { return renderer.render(text).dropping(skip) }
        let suffixText = String(text[bytes.index(bytes.startIndex, offsetBy: committedBytes)...])
        let blocks = BlockRenderer(ansi: renderer.ansi, base: renderer.base, growth: GrowthState(text: "", growing: false))
        var suffix = RenderedBlock()
        for child in MarkdownParser.parse(suffixText).children {
            suffix.append(blocks.render(child, width: renderer.width, open: false), separator: [[]])
        }
        var result = committed(skip: skip, suffix: suffix)
        result.stable = 0
        return result
    }

    /// The committed lines, then the rendered suffix after a blank line, from line `skip` on.
    private func committed(skip: Int, suffix: RenderedBlock) -> RenderedBlock {
        var result = RenderedBlock.final(Array(committedLines[(min(skip, committedCount) - released)...]))
        let kept = result.lines.count
        if committedCount > 0 && !suffix.lines.isEmpty { result.lines.append([]) }
        let offset = result.lines.count
        result.lines += suffix.lines
        // As in RenderedBlock.append: the blank line counts as stable once a stable line follows.
        result.stable = suffix.stable > 0 ? offset + suffix.stable : kept
        result.pending = suffix.pending
        result.settled = committedCount
        // A new stream for a text whose first lines the caller has (it was replaced by a longer one).
        return result.dropping(max(0, skip - committedCount))
    }

    /// Moves the commit offset to the start line of block `count`, unless the text before it may
    /// hold a link reference definition.
    private func commit(_ count: Int, of document: MarkdownNode, lines: ArraySlice<StyledLine>, suffix: String) {
        let line = document.children[count].startLine
        guard line > 1 else { return }
        var offset = 0
        var newlines = 0
        var suffix = suffix
        let mayDefine = suffix.withUTF8 { bytes in
            let bytes = UnsafeRawBufferPointer(bytes)
            // The offset after the newline that ends line `line - 1`.
            while newlines < line - 1, let newline = ByteSearch.first(0x0A, in: bytes, from: offset) {
                newlines += 1
                offset = newline + 1
            }
            // "]:" before it.
            var from = 0
            while let close = ByteSearch.first(0x5D, in: UnsafeRawBufferPointer(rebasing: bytes[..<offset]), from: from) {
                if close + 1 < offset && bytes[close + 1] == 0x3A { return true }
                from = close + 1
            }
            return false
        }
        guard !mayDefine, newlines == line - 1 else { return }
        committedBytes += offset
        if committedCount > 0 && !lines.isEmpty {
            committedLines.append([])
            committedCount += 1
        }
        committedLines += lines
        committedCount += lines.count
    }
}
