/// Renders a markdown text that grows at its end, without going over the finished part again.
///
/// Top-level blocks that are final and followed by another block are committed: their lines are
/// kept, and their text is never parsed again. Each render parses only the text from the first
/// uncommitted block on. That suffix renders alone as it does in the whole document because a
/// top-level block begins with every container closed, and later text cannot reach back into a
/// block that another block follows. The one thing that carries across blocks is a link
/// reference definition, so text that may hold one (`]:`) is never committed: it stays in the
/// parsed suffix, where it still defines its label for everything after it.
final class MarkdownStream {
    private let renderer: MarkdownRenderer
    /// UTF-8 offset in the text where the first uncommitted block starts.
    private(set) var committedBytes = 0
    /// Lines of the committed blocks, blank lines between them included.
    private var committedLines: [StyledLine] = []
    /// Bytes handed to the markdown parser by the last render (to test that work stays bounded).
    private(set) var lastParsedBytes = 0

    init(renderer: MarkdownRenderer) {
        self.renderer = renderer
    }

    /// Renders the whole text, which must be the text of the previous call with more appended.
    func render(_ text: String) -> RenderedBlock {
        let bytes = text.utf8
        guard bytes.count >= committedBytes else { return renderer.render(text, growing: true) }
        let start = bytes.index(bytes.startIndex, offsetBy: committedBytes)
        // Only complete lines count while the text grows (see MarkdownRenderer.render).
        guard let newline = bytes[start...].lastIndex(of: 0x0A) else {
            lastParsedBytes = 0
            return RenderedBlock.final(committedLines)
        }
        let suffix = String(text[start...newline])
        lastParsedBytes = suffix.utf8.count
        let document = MarkdownParser.parse(suffix)
        let blocks = BlockRenderer(ansi: renderer.ansi, base: renderer.base, growth: GrowthState(text: suffix, growing: true))
        var result = RenderedBlock.final(committedLines)
        var commit: (blocks: Int, lines: [StyledLine])?
        for (index, child) in document.children.enumerated() {
            let isLast = index == document.children.count - 1
            let block = blocks.render(child, width: renderer.width, open: isLast)
            // Everything so far is final, and this block follows: all before it can be committed.
            if result.isFinal && index > 0 { commit = (index, result.lines) }
            result.append(block, separator: [[]])
        }
        if let commit { self.commit(commit.blocks, of: document, lines: commit.lines, suffix: suffix) }
        return result
    }

    /// Moves the commit offset to the start line of block `count`, unless the text before it may
    /// hold a link reference definition.
    private func commit(_ count: Int, of document: MarkdownNode, lines: [StyledLine], suffix: String) {
        let line = document.children[count].startLine
        guard line > 1 else { return }
        var offset = 0
        var newlines = 0
        var previous: UInt8 = 0
        for byte in suffix.utf8 {
            if byte == 0x3A && previous == 0x5D { return }  // "]:"
            offset += 1
            if byte == 0x0A {
                newlines += 1
                if newlines == line - 1 { break }
            }
            previous = byte
        }
        guard newlines == line - 1 else { return }
        committedBytes += offset
        committedLines = lines
    }
}
