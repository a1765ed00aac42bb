/// A markdown syntax tree, copied out of cmark-gfm's so the renderer works on plain Swift values.
public struct MarkdownNode: Sendable {
    public enum Alignment: Sendable { case none, left, center, right }

    public enum Kind: Sendable {
        case document
        case blockQuote
        case list(ordered: Bool, start: Int, parenDelimiter: Bool)
        /// A list item; `task` is nil for an ordinary item, else whether it is checked.
        case item(task: Bool?)
        case codeBlock(info: String, literal: String, fenced: Bool)
        case htmlBlock(String)
        case paragraph
        case heading(level: Int)
        case thematicBreak
        case table(alignments: [Alignment])
        case tableRow(header: Bool)
        case tableCell
        case text(String)
        case softBreak
        case lineBreak
        case code(String)
        case htmlInline(String)
        case emphasis
        case strong
        case strikethrough
        case link(url: String, title: String)
        case image(url: String, title: String)
        /// `[^label]` with a definition: the footnote's number (in order of first reference).
        case footnoteReference(number: Int)
        /// `[^label]: text`. cmark-gfm moves the definitions that are referenced to the end of
        /// the document, numbered in order; the others are dropped.
        case footnoteDefinition(number: Int)
        /// Anything else cmark-gfm may produce (its children are still rendered).
        case other
    }

    public var kind: Kind
    public var children: [MarkdownNode]
    /// 1-based source line where the node starts (0 when cmark does not say).
    public var startLine: Int
    /// 1-based source line where the node ends.
    public var endLine: Int

    var isList: Bool { if case .list = kind { return true } else { return false } }
}
