import CCmarkGFM
import Synchronization

/// Parses GitHub Flavored Markdown with cmark-gfm and its table, strikethrough, autolink and
/// task list extensions.
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
        meter?.bytes.add(text.utf8.count, ordering: .relaxed)
        return lock.withLock { _ in parseAlone(text) }
    }

    private static func parseAlone(_ text: String) -> MarkdownNode {
        _ = registered
        // Smart punctuation stays off: the text must look as the model wrote it.
        guard let parser = cmark_parser_new(CMARK_OPT_DEFAULT) else {
            return MarkdownNode(kind: .document, children: [], startLine: 0, endLine: 0)
        }
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
        guard let root = cmark_parser_finish(parser) else {
            return MarkdownNode(kind: .document, children: [], startLine: 0, endLine: 0)
        }
        defer { cmark_node_free(root) }
        return convert(root)
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    private static func convert(_ node: OpaquePointer) -> MarkdownNode {
        var children: [MarkdownNode] = []
        var child = cmark_node_first_child(node)
        while let current = child {
            children.append(convert(current))
            child = cmark_node_next(current)
        }
        let typeName = string(cmark_node_get_type_string(node))
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
