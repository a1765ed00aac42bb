import CCmarkGFM
import Synchronization

/// Parses GitHub Flavored Markdown with cmark-gfm and its table, strikethrough, autolink and
/// task list extensions, and footnotes.
public enum MarkdownParser {
    private static let extensionNames = ["table", "strikethrough", "autolink", "tasklist"]

    /// cmark-gfm's extension registry is a global list that is not safe to fill from two threads
    /// at once; a Swift static is initialised exactly once.
    private static let registered: Bool = {
        cmark_gfm_core_extensions_ensure_registered()
        return true
    }()

    /// Attaching an extension to a parser edits a global table of special characters inside
    /// cmark-gfm, so two parsers must never be set up or used at the same time.
    private static let lock = Mutex(())

    /// Counts the bytes parsed while it is bound, so a test can check that streaming does not
    /// parse the whole text again for every delta.
    @TaskLocal static var meter: ParseMeter?

    public static func parse(_ text: String) -> MarkdownNode {
        var blocks: [MarkdownNode] = []
        let endLine = forEachBlock(text) { block, _ in blocks.append(block) }
        return MarkdownNode(kind: .document, children: blocks, startLine: 1, endLine: endLine)
    }

    /// Parses `text` and hands its top-level blocks to `body` one at a time (with whether it is the
    /// last), so a caller that renders each one as it comes never holds the tree of a whole long
    /// text. Returns the document's last line.
    @discardableResult
    public static func forEachBlock(_ text: String, _ body: (MarkdownNode, _ isLast: Bool) -> Void) -> Int {
        meter?.bytes.add(text.utf8.count, ordering: .relaxed)
        return lock.withLock { _ in parseAlone(text, body) }
    }

    private static func parseAlone(_ text: String, _ body: (MarkdownNode, Bool) -> Void) -> Int {
        _ = registered
        // Smart punctuation stays off: the text must look as the model wrote it.
        guard let parser = cmark_parser_new(CMARK_OPT_DEFAULT | CMARK_OPT_FOOTNOTES) else { return 0 }
        defer { cmark_parser_free(parser) }
        for name in extensionNames {
            if let syntax = cmark_find_syntax_extension(name) {
                cmark_parser_attach_syntax_extension(parser, syntax)
            }
        }
        var bytes = Array(text.utf8)
        // cmark reads NUL as a replacement character anyway; keep the buffer free of it.
        for index in bytes.indices where bytes[index] == 0 { bytes[index] = 0x20 }
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
        }
        bytes = []
        guard let root = cmark_parser_finish(parser) else { return 0 }
        defer { cmark_node_free(root) }
        // Each top-level block is freed in cmark as soon as it is copied: cmark's nodes are several
        // times the size of the text, and both trees at once would be the peak memory use.
        var footnotes = 0
        while let block = cmark_node_first_child(root) {
            var converted = convert(block, depth: 1)
            if case .footnoteDefinition = converted.kind {
                // The definitions come last, in the order of their numbers.
                footnotes += 1
                converted.kind = .footnoteDefinition(number: footnotes)
                // Moved to the end, a definition does not start where it shows: no start line, so
                // nothing is taken to end before it.
                converted.startLine = 0
            }
            let isLast = cmark_node_next(block) == nil
            cmark_node_unlink(block)
            cmark_node_free(block)
            body(converted, isLast)
        }
        return Int(cmark_node_get_end_line(root))
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    /// Block quotes and lists nested deeper than this are rendered flat: the blocks inside the
    /// deepest container shown are listed in it one after the other, whatever their depth. A
    /// message can nest thousands deep in a few kilobytes; each level costs columns and stack.
    static let maxContainerDepth = 16
    /// Inline styles (emphasis, links, ...) nested deeper than this keep only their text.
    static let maxNodeDepth = 48

    private static func isContainer(_ node: OpaquePointer) -> Bool {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_BLOCK_QUOTE, CMARK_NODE_LIST, CMARK_NODE_ITEM: return true
        default: return false
        }
    }

    /// Calls `visit` for each node under `root` in document order, without recursion; `visit`
    /// says whether to go into the node's children.
    private static func walk(_ root: OpaquePointer, _ visit: (OpaquePointer) -> Bool) {
        var current = cmark_node_first_child(root)
        while let node = current {
            if visit(node), let child = cmark_node_first_child(node) {
                current = child
                continue
            }
            current = nil
            var climber: OpaquePointer? = node
            while let step = climber, step != root {
                if let next = cmark_node_next(step) {
                    current = next
                    break
                }
                climber = cmark_node_parent(step)
            }
        }
    }

    /// The children of `node`: converted one level down, or, for a container at the depth limit,
    /// every block below it that is not a container itself.
    private static func children(of node: OpaquePointer, depth: Int) -> [MarkdownNode] {
        var children: [MarkdownNode] = []
        if depth >= maxContainerDepth && isContainer(node) {
            walk(node) { block in
                if isContainer(block) { return true }
                children.append(convert(block, depth: depth + 1))
                return false
            }
            return children
        }
        // Counted first, so that the array is made once, not grown child by child.
        var count = 0
        var child = cmark_node_first_child(node)
        while let current = child {
            count += 1
            child = cmark_node_next(current)
        }
        children.reserveCapacity(count)
        child = cmark_node_first_child(node)
        while let current = child {
            children.append(convert(current, depth: depth + 1))
            child = cmark_node_next(current)
        }
        return children
    }

    /// The text under an inline node, for styles nested too deep to keep.
    private static func flatText(_ node: OpaquePointer) -> String {
        var text = ""
        walk(node) { inline in
            switch cmark_node_get_type(inline) {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_HTML_INLINE: text += string(cmark_node_get_literal(inline))
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK: text += " "
            case CMARK_NODE_FOOTNOTE_REFERENCE: text += "[" + string(cmark_node_get_literal(inline)) + "]"
            default: break
            }
            return true
        }
        return text
    }

    private static func convert(_ node: OpaquePointer, depth: Int) -> MarkdownNode {
        // Containers stop at `maxContainerDepth` and a leaf block adds at most 3 levels (table,
        // row, cell), so a node this deep with children is an inline style.
        if depth >= maxNodeDepth && cmark_node_first_child(node) != nil && !isContainer(node) {
            return MarkdownNode(kind: .text(flatText(node)), children: [], startLine: 0, endLine: 0)
        }
        let children = children(of: node, depth: depth)
        // Only items and the extensions' nodes are told apart by name: not a String for every node.
        var typeName: String { string(cmark_node_get_type_string(node)) }
        let kind: MarkdownNode.Kind
        switch cmark_node_get_type(node) {
        case CMARK_NODE_DOCUMENT: kind = .document
        case CMARK_NODE_BLOCK_QUOTE: kind = .blockQuote
        case CMARK_NODE_LIST:
            kind = .list(
                ordered: cmark_node_get_list_type(node) == CMARK_ORDERED_LIST,
                start: Int(cmark_node_get_list_start(node)),
                parenDelimiter: cmark_node_get_list_delim(node) == CMARK_PAREN_DELIM)
        case CMARK_NODE_ITEM:
            kind = .item(task: typeName == "tasklist" ? cmark_gfm_extensions_get_tasklist_item_checked(node) : nil)
        case CMARK_NODE_CODE_BLOCK:
            var length: Int32 = 0, offset: Int32 = 0
            var character: CChar = 0
            let fenced = cmark_node_get_fenced(node, &length, &offset, &character) != 0
            kind = .codeBlock(
                info: string(cmark_node_get_fence_info(node)), literal: string(cmark_node_get_literal(node)),
                fenced: fenced)
        case CMARK_NODE_HTML_BLOCK: kind = .htmlBlock(string(cmark_node_get_literal(node)))
        case CMARK_NODE_PARAGRAPH: kind = .paragraph
        case CMARK_NODE_HEADING:
            kind = .heading(level: Int(cmark_node_get_heading_level(node)))
        case CMARK_NODE_THEMATIC_BREAK: kind = .thematicBreak
        case CMARK_NODE_TEXT: kind = .text(string(cmark_node_get_literal(node)))
        case CMARK_NODE_SOFTBREAK: kind = .softBreak
        case CMARK_NODE_LINEBREAK: kind = .lineBreak
        case CMARK_NODE_CODE: kind = .code(string(cmark_node_get_literal(node)))
        case CMARK_NODE_HTML_INLINE: kind = .htmlInline(string(cmark_node_get_literal(node)))
        case CMARK_NODE_EMPH: kind = .emphasis
        case CMARK_NODE_STRONG: kind = .strong
        case CMARK_NODE_LINK: kind = .link(url: string(cmark_node_get_url(node)), title: string(cmark_node_get_title(node)))
        case CMARK_NODE_IMAGE: kind = .image(url: string(cmark_node_get_url(node)), title: string(cmark_node_get_title(node)))
        // cmark-gfm gives a resolved reference its footnote's number as its literal.
        case CMARK_NODE_FOOTNOTE_REFERENCE: kind = .footnoteReference(number: Int(string(cmark_node_get_literal(node))) ?? 0)
        case CMARK_NODE_FOOTNOTE_DEFINITION: kind = .footnoteDefinition(number: 0)
        default:
            switch typeName {
            case "table":
                let columns = Int(cmark_gfm_extensions_get_table_columns(node))
                var alignments: [MarkdownNode.Alignment] = []
                if let raw = cmark_gfm_extensions_get_table_alignments(node) {
                    for index in 0..<columns {
                        switch raw[index] {
                        case UInt8(ascii: "l"): alignments.append(.left)
                        case UInt8(ascii: "c"): alignments.append(.center)
                        case UInt8(ascii: "r"): alignments.append(.right)
                        default: alignments.append(.none)
                        }
                    }
                }
                kind = .table(alignments: alignments)
            case "table_header": kind = .tableRow(header: true)
            case "table_row": kind = .tableRow(header: cmark_gfm_extensions_get_table_row_is_header(node) != 0)
            case "table_cell": kind = .tableCell
            case "strikethrough": kind = .strikethrough
            default: kind = .other
            }
        }
        return MarkdownNode(
            kind: kind, children: children, startLine: Int(cmark_node_get_start_line(node)),
            endLine: Int(cmark_node_get_end_line(node)))
    }
}

/// The number of bytes handed to the markdown parser (see `MarkdownParser.meter`).
final class ParseMeter: Sendable {
    let bytes = Atomic<Int>(0)
}
