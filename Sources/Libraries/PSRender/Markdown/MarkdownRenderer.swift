import PSCore

/// Renders GFM markdown for the terminal (ansi or plain), wrapped to a width, and tells which of
/// the lines are final while the text is still being streamed.
public struct MarkdownRenderer: Sendable {
    public let ansi: Bool
    public let width: Int
    /// A style every line starts from (dim for reasoning).
    public let base: TextStyle

    /// `links`: how links show in ansi (plain always prints their URL).
    public init(ansi: Bool, width: Int, base: TextStyle = .plain, links: LinkStyle = .osc8) {
        self.ansi = ansi
        self.width = width
        var base = base
        base.printsURLs = links == .inline
        self.base = base
    }

    /// Renders `text`. With `growing`, the text may still get more appended and `stable` counts
    /// the lines no continuation can change; otherwise every line is final.
    public func render(_ text: String, growing: Bool = false) -> RenderedBlock {
        // While the text grows, only its complete lines count: a partial last line can still change
        // what the blocks before it are (`|` alone is a paragraph that ends a table; with more text
        // it is one of its rows). The lines rendered from complete lines are all that may be
        // written before the text is finished anyway.
        var text = text
        if growing {
            let bytes = text.utf8
            let end = bytes.lastIndex(of: 0x0A).map { bytes.index(after: $0) } ?? bytes.startIndex
            text = String(text[..<end])
        }
        var result = RenderedBlock()
        forEachBlock(text, growing: growing) { block in result.append(block, separator: [[]]) }
        return result
    }

    /// Renders the finished `text` into `sink` block by block, a blank line between blocks: the
    /// lines of a long text are written as they are made, never all held at once.
    func render(_ text: String, into sink: LineSink) {
        var wrote = false
        forEachBlock(text, growing: false) { block in
            guard !block.lines.isEmpty else { return }
            if wrote { sink.take([]) }
            sink.take(block.lines)
            wrote = true
        }
    }

    /// Hands each top-level block of `text`, rendered, to `body`.
    private func forEachBlock(_ text: String, growing: Bool, _ body: (RenderedBlock) -> Void) {
        let blocks = BlockRenderer(ansi: ansi, base: base, growth: GrowthState(text: text, growing: growing))
        // Block by block, as the document container would, without the whole tree at once.
        // A growing text is parsed whole: its line numbers tell which lines are final.
        let pieces = growing ? [text[...]] : MarkdownChunks.split(text)
        for (index, piece) in pieces.enumerated() {
            let lastPiece = index == pieces.count - 1
            MarkdownParser.forEachBlock(String(piece)) { block, isLast in
                body(blocks.render(block, width: width, open: growing && lastPiece && isLast))
            }
        }
    }
}

/// What the renderer must know about text that may still grow.
struct GrowthState {
    let growing: Bool
    /// Lines ended by a newline: source lines up to this number cannot change any more.
    let completeLines: Int
    /// The text ends with a blank line, which closes an open paragraph, heading or table.
    let endsWithBlankLine: Bool

    init(text: String, growing: Bool) {
        self.growing = growing
        // A finished text asks neither question: no pass over it.
        guard growing else {
            completeLines = 0
            endsWithBlankLine = false
            return
        }
        var newlines = 0
        var lastNewline = -1
        var previousNewline = -1
        // Newlines found with memchr, at each render.
        var text = text
        let blankEnd = text.withUTF8 { bytes -> Bool in
            let bytes = UnsafeRawBufferPointer(bytes)
            var from = 0
            while let newline = ByteSearch.first(0x0A, in: bytes, from: from) {
                newlines += 1
                previousNewline = lastNewline
                lastNewline = newline
                from = newline + 1
            }
            // The line before the last newline is blank, and nothing but blanks follows it.
            func blank(_ range: Range<Int>) -> Bool {
                bytes[range].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            }
            return newlines >= 2 && blank((previousNewline + 1)..<lastNewline) && blank((lastNewline + 1)..<bytes.count)
        }
        endsWithBlankLine = blankEnd
        completeLines = newlines
    }
}

struct BlockRenderer {
    let ansi: Bool
    let base: TextStyle
    let growth: GrowthState
    /// How many lists this block is nested in (bullets change with depth).
    var listDepth = 0

    var inline: InlineRenderer { InlineRenderer(ansi: ansi) }

    func style(_ change: (inout TextStyle) -> Void) -> TextStyle {
        var style = base
        change(&style)
        return style
    }

    /// `open`: the node is the last one of a text that may grow, so it may still change.
    func render(_ node: MarkdownNode, width: Int, open: Bool) -> RenderedBlock {
        switch node.kind {
        case .document:
            return container(node.children, width: width, open: open) { _, _ in [[]] }
        case .blockQuote:
            let bar = [Span("│ ", style { $0.color = ansi ? .green : nil })]
            return container(node.children, width: max(1, width - 2), open: open) { _, _ in [[]] }
                .prefixed(first: bar, rest: bar)
        case .list(let ordered, let start, let paren):
            return list(node, ordered: ordered, start: start, paren: paren, width: width, open: open)
        case .item:
            // Items are rendered by `list`, which knows their marker.
            return container(node.children, width: width, open: open, separator: itemSeparator)
        case .paragraph:
            let lines = Wrapper.wrap(inline.pieces(node, base: base), width: width)
            return leaf(lines, node, open: open, closed: growth.endsWithBlankLine)
        case .heading(let level):
            return leaf(heading(node, level: level, width: width), node, open: open, closed: lineEnded(node))
        case .thematicBreak:
            let rule = [Span(String(repeating: "─", count: max(1, width)), style { $0.dim = ansi })]
            return leaf([rule], node, open: open, closed: lineEnded(node))
        case .codeBlock(let info, let literal, let fenced):
            return codeBlock(node, info: info, literal: literal, fenced: fenced, width: width, open: open)
        case .htmlBlock(let html):
            let lines = LiteralLines.strings(html).flatMap { hardWrap($0, width: width, style: style { $0.dim = ansi }) }
            return leaf(lines, node, open: open, closed: false)
        case .table(let alignments):
            let lines = TableRenderer(ansi: ansi, base: base, inline: inline)
                .render(node, alignments: alignments, width: width)
            return leaf(lines, node, open: open, closed: growth.endsWithBlankLine)
        case .footnoteDefinition(let number):
            return footnote(node, number: number, width: width, open: open)
        default:
            return container(node.children, width: width, open: open) { _, _ in [[]] }
        }
    }

    /// Blank line between the blocks of an item, none before a nested list (so "- a" followed by
    /// a sub-list stays compact, as it was written).
    private func itemSeparator(_ previous: MarkdownNode, _ next: MarkdownNode) -> [StyledLine] {
        next.isList ? [] : [[]]
    }

    func container(
        _ children: [MarkdownNode], width: Int, open: Bool,
        separator: (MarkdownNode, MarkdownNode) -> [StyledLine]
    ) -> RenderedBlock {
        var result = RenderedBlock()
        for (index, child) in children.enumerated() {
            let isLast = index == children.count - 1
            let block = render(child, width: width, open: open && isLast)
            result.append(block, separator: index > 0 ? separator(children[index - 1], child) : [])
        }
        return result
    }

    /// A leaf block: final unless the text may still grow and this is its last block and it is not
    /// yet closed; never final while a later link reference definition could change it.
    func leaf(_ lines: [StyledLine], _ node: MarkdownNode, open: Bool, closed: Bool) -> RenderedBlock {
        guard growth.growing else { return .final(lines) }
        if InlineRenderer.mayChangeLater(node) {
            return RenderedBlock(lines: lines, stable: 0)
        }
        if open && !closed { return RenderedBlock(lines: lines, stable: 0) }
        return .final(lines)
    }

    /// The node's last source line has its newline: a one-line block (ATX heading, rule, setext
    /// underline) cannot change after that.
    func lineEnded(_ node: MarkdownNode) -> Bool {
        node.endLine > 0 && node.endLine <= growth.completeLines
    }

    func list(_ node: MarkdownNode, ordered: Bool, start: Int, paren: Bool, width: Int, open: Bool) -> RenderedBlock {
        var result = RenderedBlock()
        var nested = self
        nested.listDepth += 1
        for (index, item) in node.children.enumerated() {
            let isLast = index == node.children.count - 1
            var marker: String
            if ordered {
                marker = String(start + index) + (paren ? ")" : ".")
            } else {
                marker = ["•", "◦", "▪"][listDepth % 3]
            }
            var markerStyle = style { $0.color = ansi ? .cyan : nil }
            if case .item(let task?) = item.kind {
                marker = ordered ? marker + " " + (task ? "☑" : "☐") : (task ? "☑" : "☐")
                if task && ansi { markerStyle.color = .green }
            }
            let indent = DisplayWidth.of(marker) + 1
            var lines = nested.container(
                item.children, width: max(1, width - indent), open: open && isLast, separator: itemSeparator)
            if lines.lines.isEmpty {
                // An empty item still shows its marker.
                lines = RenderedBlock(lines: [[]], stable: growth.growing && open && isLast ? 0 : 1)
            }
            let first: StyledLine = [Span(marker, markerStyle), Span(" ", base)]
            let rest: StyledLine = [Span(String(repeating: " ", count: indent), base)]
            result.append(lines.prefixed(first: first, rest: rest), separator: [])
        }
        return result
    }

    /// A footnote's definition as an item of the numbered list at the end of the text: `[1] text`.
    /// While the text grows it is never final: more text goes before it.
    func footnote(_ node: MarkdownNode, number: Int, width: Int, open: Bool) -> RenderedBlock {
        let marker = "[" + String(number) + "]"
        let indent = DisplayWidth.of(marker) + 1
        var body = container(node.children, width: max(1, width - indent), open: open, separator: itemSeparator)
        if body.lines.isEmpty { body.lines = [[]] }
        let first: StyledLine = [Span(marker, style { $0.color = ansi ? .cyan : nil }), Span(" ", base)]
        let rest: StyledLine = [Span(String(repeating: " ", count: indent), base)]
        let lines = body.prefixed(first: first, rest: rest).lines
        return growth.growing ? RenderedBlock(lines: lines, stable: 0) : .final(lines)
    }

    /// Level 1 bold magenta over a double rule, level 2 bold cyan over a rule (in plain: the
    /// rules); levels 3 to 6 after their `###` marker (dimmed in ansi), bold, and from level 4 on
    /// italic as well, so that no heading looks like a line of bold text.
    func heading(_ node: MarkdownNode, level: Int, width: Int) -> [StyledLine] {
        let headingStyle = style {
            $0.bold = true
            if ansi && level >= 4 { $0.italic = true }
            if ansi { $0.color = level == 1 ? .magenta : level == 2 ? .cyan : nil }
        }
        var pieces = inline.pieces(node, base: headingStyle)
        if level >= 3 {
            pieces.insert(.text(String(repeating: "#", count: level) + " ", style { $0.dim = ansi }), at: 0)
        }
        var lines = Wrapper.wrap(pieces, width: width)
        if level <= 2 {
            let ruleWidth = max(1, lines.map(\.displayWidth).max() ?? 1)
            lines.append([Span(String(repeating: level == 1 ? "═" : "─", count: ruleWidth), headingStyle)])
        }
        return lines
    }

    func codeBlock(_ node: MarkdownNode, info: String, literal: String, fenced: Bool, width: Int, open: Bool) -> RenderedBlock {
        let fenceStyle = style { $0.dim = ansi }
        let codeStyle = style { $0.color = ansi ? .yellow : nil }
        let language = info.split(separator: " ").first.map(String.init) ?? ""
        // Never wrapped: a line cut in two would paste back as two lines. It runs on past the width.
        var literal = literal
        let source = literal.withUTF8 { LiteralLines.ranges($0) }
        // Content starts on the line after the opening fence (indented code: on its first line).
        let firstContentLine = fenced ? node.startLine + 1 : node.startLine
        let closedByFence = fenced && node.endLine >= firstContentLine + source.count
        // In ansi, coloured by its language where source-highlight knows it; yellow otherwise.
        let highlighted = ansi
            ? SyntaxHighlighter.lines(
                literal, source, language: language, base: base, finished: closedByFence && !(growth.growing && open),
                keep: growth.growing) : nil
        let body = highlighted ?? LiteralLines.strings(literal).map { line -> StyledLine in
            let text = line.withoutControlCharacters
            return text.isEmpty ? [] : [Span(text, codeStyle)]
        }
        let top: StyledLine = [Span("```" + language.withoutControlCharacters, fenceStyle)]
        let bottom: StyledLine = [Span("```", fenceStyle)]
        let lines = [top] + body + [bottom]
        guard growth.growing && open else { return .final(lines) }
        if closedByFence && lineEnded(node) { return .final(lines) }
        // The opening fence's info string (the language) is final only with its newline.
        guard fenced, node.startLine <= growth.completeLines else { return RenderedBlock(lines: lines, stable: 0) }
        // A content line is final once its newline is in: it can no longer become the closing fence.
        let finalSourceLines = max(0, min(body.count, growth.completeLines - firstContentLine + 1))
        return RenderedBlock(lines: lines, stable: 1 + finalSourceLines)
    }

    /// Cuts a line at the width, wherever it is (for HTML blocks and tool input and output).
    func hardWrap(_ line: String, width: Int, style: TextStyle) -> [StyledLine] {
        let text = line.withoutControlCharacters
        var lines: [StyledLine] = []
        var current = String.UnicodeScalarView()
        var currentWidth = 0
        for scalar in text.unicodeScalars {
            let scalarWidth = DisplayWidth.of(scalar)
            if currentWidth + scalarWidth > max(1, width) && !current.isEmpty {
                lines.append([Span(String(current), style)])
                current = String.UnicodeScalarView()
                currentWidth = 0
            }
            current.append(scalar)
            currentWidth += scalarWidth
        }
        lines.append(current.isEmpty ? [] : [Span(String(current), style)])
        return lines
    }
}
