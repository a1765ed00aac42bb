import CSourceHighlightLoader
import PSCore
import Synchronization

/// The colours of a fenced code block's lines, from GNU source-highlight's language definitions
/// (see CSourceHighlight, opened by CSourceHighlightLoader the first time code is coloured: a
/// render that colours none never loads it). Only styles are added: each line's text is the
/// code's text, passed through the same terminal-safe path as plain code.
///
/// A line's colours depend only on the lines before it, so a block that is still being written
/// has the colours it will have when finished, and highlighting it again as it grows costs only
/// its new lines: a highlighter is kept per language and resumes where it stopped.
enum SyntaxHighlighter {
    /// What the code is and how it looks (the 8 basic colours, so the terminal's theme decides).
    enum Kind: UInt8 {
        case keyword = 1, type, string, comment, number, preprocessor, function, variable, deleted, inserted, meta

        func style(from base: TextStyle) -> TextStyle {
            var style = base
            switch self {
            case .keyword, .preprocessor: style.color = .magenta
            case .type, .variable, .meta: style.color = .cyan
            case .string, .inserted: style.color = .green
            case .comment: style.dim = true
            case .number: style.color = .yellow
            case .function: style.color = .blue
            case .deleted: style.color = .red
            }
            return style
        }
    }

    /// `length` bytes at UTF-8 offset `offset` of the code.
    struct CodeSpan: Equatable {
        let offset: Int
        let length: Int
        let kind: Kind
    }

    /// The spans of `code` (lines separated by "\n") in `language`, the word after its fence; nil
    /// when source-highlight has no definition for it, or the highlighter library is missing or
    /// broken. `finished`: the block will not grow, and its spans may have been kept; `keep`: they
    /// are kept for a while, since the block will be rendered again (it is finished, but not
    /// committed yet in a text still streaming).
    static func spans(_ code: String, language: String, finished: Bool = false, keep: Bool = true) -> [CodeSpan]? {
        guard !language.isEmpty, ps_highlight_load() != 0,
              let file = language.withCString({ ps_highlight_language_file($0) })
        else { return nil }
        return Pool.shared.withHighlighter(
            for: String(cString: file), code: code, finished: finished, keep: keep
        ) { highlighter in
            var code = code
            return code.withUTF8 { bytes -> [CodeSpan] in
                var pointer: UnsafePointer<ps_code_span>?
                let count = bytes.withMemoryRebound(to: CChar.self) { chars in
                    ps_highlight_run(highlighter, chars.baseAddress, chars.count, &pointer)
                }
                guard let pointer else { return [] }
                return UnsafeBufferPointer(start: pointer, count: count).compactMap { span in
                    Kind(rawValue: span.kind).map { CodeSpan(offset: Int(span.offset), length: Int(span.length), kind: $0) }
                }
            }
        }
    }

    /// The lines of a code block coloured for `language`, from `base`: `literal` is the block's
    /// text as cmark gives it, `lines` the byte ranges of its lines (LiteralLines). Nil when the
    /// language is not known.
    static func lines(
        _ literal: String, _ lines: [Range<Int>], language: String, base: TextStyle, finished: Bool = false,
        keep: Bool = true
    ) -> [StyledLine]? {
        // The code is the lines and the newlines between them: the literal up to its last line's end.
        let codeLength = lines.last?.upperBound ?? 0
        var literal = literal
        let code = codeLength == literal.utf8.count
            ? literal : literal.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[..<codeLength]), as: UTF8.self) }
        guard let spans = spans(code, language: language, finished: finished, keep: keep) else { return nil }
        return literal.withUTF8 { bytes in
            var result: [StyledLine] = []
            result.reserveCapacity(lines.count)
            var next = 0  // the first span not yet used
            for line in lines {
                var styled: StyledLine = []
                var position = line.lowerBound
                func add(_ end: Int, _ style: TextStyle) {
                    let end = scalarBoundary(bytes, max(position, min(end, line.upperBound)))
                    guard end > position else { return }
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
                        .withoutControlCharacters
                    if let last = styled.last, last.style == style {
                        styled[styled.count - 1].text += text
                    } else {
                        if styled.isEmpty { styled.reserveCapacity(4) }
                        styled.append(Span(text, style))
                    }
                    position = end
                }
                while next < spans.count && spans[next].offset < line.upperBound {
                    let span = spans[next]
                    add(span.offset, base)
                    add(span.offset + span.length, span.kind.style(from: base))
                    next += 1
                }
                add(line.upperBound, base)
                result.append(styled)
            }
            return result
        }
    }

    /// `offset`, or the start of the next scalar when it falls inside one (source-highlight works
    /// on bytes; a span never splits a character).
    private static func scalarBoundary(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Int {
        var offset = offset
        while offset < bytes.count && bytes[offset] & 0xC0 == 0x80 { offset += 1 }
        return offset
    }

    /// One highlighter per language, a few languages at most (the least recently used goes), and
    /// the spans of the last finished blocks of streaming texts (up to 256 KB of code: those not
    /// committed yet, rendered again until the next block begins), behind a lock: renders may run
    /// on several threads.
    final class Pool: @unchecked Sendable {
        static let shared = Pool()
        private let lock = Mutex(())
        private var highlighters: [(file: String, highlighter: OpaquePointer)] = []
        private let capacity = 4

        /// Code compared byte for byte, not as Strings (canonical equivalence): the spans are
        /// byte offsets.
        private struct Block: Hashable {
            let file: String
            let code: String

            func hash(into hasher: inout Hasher) {
                hasher.combine(file)
                for byte in code.utf8 { hasher.combine(byte) }
            }

            static func == (a: Block, b: Block) -> Bool {
                a.file == b.file && a.code.utf8.elementsEqual(b.code.utf8)
            }
        }
        private var finished: [Block: [CodeSpan]] = [:]
        private var finishedOrder: [Block] = []
        private var finishedBytes = 0
        private let finishedCapacity = 256 << 10

        func withHighlighter(
            for file: String, code: String, finished isFinished: Bool, keep: Bool, _ body: (OpaquePointer) -> [CodeSpan]
        ) -> [CodeSpan]? {
            lock.withLock { _ in locked(file: file, code: code, finished: isFinished, keep: keep, body) }
        }

        private func locked(
            file: String, code: String, finished isFinished: Bool, keep: Bool, _ body: (OpaquePointer) -> [CodeSpan]
        ) -> [CodeSpan]? {
            let block = Block(file: file, code: code)
            if isFinished, let spans = finished[block] { return spans }
            let highlighter: OpaquePointer
            if let index = highlighters.firstIndex(where: { $0.file == file }) {
                highlighter = highlighters.remove(at: index).highlighter
            } else {
                guard let created = file.withCString({ ps_highlight_create($0) }) else { return nil }
                highlighter = created
                if highlighters.count >= capacity { ps_highlight_destroy(highlighters.removeFirst().highlighter) }
            }
            highlighters.append((file, highlighter))
            let spans = body(highlighter)
            if isFinished && keep && code.utf8.count <= finishedCapacity { self.keep(spans, for: block) }
            return spans
        }

        private func keep(_ spans: [CodeSpan], for block: Block) {
            let size = block.code.utf8.count + spans.count * MemoryLayout<CodeSpan>.stride
            while finishedBytes + size > finishedCapacity, !finishedOrder.isEmpty {
                let oldest = finishedOrder.removeFirst()
                if let old = finished.removeValue(forKey: oldest) {
                    finishedBytes -= oldest.code.utf8.count + old.count * MemoryLayout<CodeSpan>.stride
                }
            }
            finished[block] = spans
            finishedOrder.append(block)
            finishedBytes += size
        }
    }
}
