import PSCore

/// Turns a block's inline nodes into styled pieces for the wrapper.
struct InlineRenderer {
    let ansi: Bool

    /// The pieces of `node`'s inline children, every one styled on top of `base`.
    func pieces(_ node: MarkdownNode, base: TextStyle) -> [InlinePiece] {
        var out: [InlinePiece] = []
        out.reserveCapacity(node.children.count)
        for child in node.children { append(child, style: base, to: &out) }
        return out
    }

    private func append(_ node: MarkdownNode, style: TextStyle, to out: inout [InlinePiece]) {
        switch node.kind {
        case .text(let text):
            out.append(.text(text.withoutControlCharacters, style))
        case .softBreak:
            out.append(.softBreak)
        case .lineBreak:
            out.append(.hardBreak)
        case .code(let code):
            var codeStyle = style
            codeStyle.color = .yellow
            let text = code.withoutControlCharacters
            out.append(.text(ansi ? text : "`" + text + "`", codeStyle))
        case .htmlInline(let html):
            var htmlStyle = style
            htmlStyle.dim = true
            out.append(.text(html.withoutControlCharacters, htmlStyle))
        case .emphasis:
            var inner = style
            inner.italic = true
            children(of: node, style: inner, to: &out)
        case .strong:
            var inner = style
            inner.bold = true
            children(of: node, style: inner, to: &out)
        case .strikethrough:
            var inner = style
            inner.strike = true
            if !ansi { out.append(.text("~~", style)) }
            children(of: node, style: inner, to: &out)
            if !ansi { out.append(.text("~~", style)) }
        case .link(let url, _):
            link(node, url: url, image: false, style: style, to: &out)
        case .image(let url, _):
            link(node, url: url, image: true, style: style, to: &out)
        case .footnoteReference(let number):
            var referenceStyle = style
            if ansi { referenceStyle.color = .cyan }
            out.append(.text("[" + String(number) + "]", referenceStyle))
        default:
            children(of: node, style: style, to: &out)
        }
    }

    private func children(of node: MarkdownNode, style: TextStyle, to out: inout [InlinePiece]) {
        for child in node.children { append(child, style: style, to: &out) }
    }

    /// ansi: the text as an OSC 8 hyperlink, or underlined with its URL after it when the style
    /// prints URLs. plain: `text <url>`. The URL is left out when the text already is the URL
    /// (autolinks).
    private func link(_ node: MarkdownNode, url: String, image: Bool, style: TextStyle, to out: inout [InlinePiece]) {
        let hyperlink = ansi && !style.printsURLs
        var inner = style
        if ansi {
            inner.underline = true
            inner.color = .blue
            if hyperlink { inner.link = url }
        }
        var text: [InlinePiece] = []
        children(of: node, style: inner, to: &text)
        if image {
            let label = text.isEmpty ? "image" : "image: "
            out.append(.text("[" + label, inner))
            out.append(contentsOf: text)
            out.append(.text("]", inner))
        } else {
            out.append(contentsOf: text)
        }
        guard !hyperlink, !url.isEmpty else { return }
        let shown = Self.plainText(node)
        if !image && (shown == url || "http://" + shown == url || "mailto:" + shown == url) { return }
        var urlStyle = style
        urlStyle.dim = ansi
        out.append(.text(" <" + url.withoutControlCharacters + ">", urlStyle))
    }

    /// The text of a node's descendants, without styles.
    static func plainText(_ node: MarkdownNode) -> String {
        var text = ""
        for child in node.children {
            switch child.kind {
            case .text(let value), .code(let value), .htmlInline(let value): text += value
            case .softBreak, .lineBreak: text += " "
            case .footnoteReference(let number): text += "[" + String(number) + "]"
            default: text += plainText(child)
            }
        }
        return text
    }

    /// Whether text after the node can still change how it renders: its text has a `[` with a `]`
    /// after it that is not a link (a link reference definition later in the text could make it
    /// one), or it refers to a footnote (its number counts the footnotes referred to before it
    /// in the whole text, and its definition shows at the end only while a reference to it is in
    /// the same parse). Such a block stays open until the text is finished.
    ///
    /// One walk over the tree, children read where they are (a copy of each node walked, and a
    /// walk for each question, cost as much as rendering a streaming paragraph).
    static func mayChangeLater(_ node: MarkdownNode) -> Bool {
        var sawOpen = false
        func visit(_ node: MarkdownNode) -> Bool {
            switch node.kind {
            case .footnoteReference: return true
            case .text(var text):
                // From the bytes: the first `[`, then any `]`.
                let closed = text.withUTF8 { bytes in
                    var rest = UnsafeRawBufferPointer(bytes)
                    if !sawOpen {
                        guard let open = ByteSearch.first(0x5B, in: rest) else { return false }
                        sawOpen = true
                        rest = UnsafeRawBufferPointer(rebasing: rest[(open + 1)...])
                    }
                    return ByteSearch.first(0x5D, in: rest) != nil
                }
                if closed { return true }
            default: break
            }
            for index in node.children.indices where visit(node.children[index]) { return true }
            return false
        }
        return visit(node)
    }
}
