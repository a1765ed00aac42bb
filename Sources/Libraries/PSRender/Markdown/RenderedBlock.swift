/// Rendered lines and how many of them are final: the text they came from may still grow, and
/// only the first `stable` lines are certain to stay as they are.
public struct RenderedBlock: Equatable, Sendable {
    public var lines: [StyledLine]
    public var stable: Int
    /// More lines may still come at the end (a part that is still streaming), so nothing placed
    /// after this block is final yet, even when all its current lines are.
    public var pending: Bool
    /// How many leading lines will never change whatever is appended to the text (the lines of
    /// blocks that another block follows), counted from the block's first line even when a render
    /// left some out (see `dropping`). A renderer asked to leave out lines leaves out only these.
    public var settled: Int = 0

    public init(lines: [StyledLine] = [], stable: Int = 0, pending: Bool = false) {
        self.lines = lines
        self.stable = stable
        self.pending = pending
    }

    public static func final(_ lines: [StyledLine]) -> RenderedBlock { RenderedBlock(lines: lines, stable: lines.count) }

    public var isFinal: Bool { !pending && stable == lines.count }

    /// The block without its first `count` lines (the caller has them already).
    func dropping(_ count: Int) -> RenderedBlock {
        guard count > 0 else { return self }
        var result = self
        result.lines = Array(lines.dropFirst(count))
        result.stable = max(0, stable - count)
        return result
    }

    /// Appends `block` after `separator` lines (blank lines between blocks). Stability is a prefix:
    /// nothing after a line that can still change counts as stable, and a separator only counts
    /// once something stable follows it.
    mutating func append(_ block: RenderedBlock, separator: [StyledLine]) {
        let wasFinal = isFinal
        if !lines.isEmpty && !block.lines.isEmpty { lines += separator }
        let offset = lines.count
        lines += block.lines
        if wasFinal && block.stable > 0 { stable = offset + block.stable }
        if block.pending { pending = true }
    }

    /// Puts `first` before the first line and `rest` before the others (list markers, quote bars).
    func prefixed(first: StyledLine, rest: StyledLine) -> RenderedBlock {
        var result = self
        for index in result.lines.indices {
            result.lines[index] = Self.prefix(result.lines[index], with: index == 0 ? first : rest)
        }
        return result
    }

    /// `prefix` then `line`; an empty line gets the prefix without its trailing spaces.
    static func prefix(_ line: StyledLine, with prefix: StyledLine) -> StyledLine {
        guard line.isEmpty else { return prefix + line }
        var trimmed = prefix
        while let last = trimmed.last, last.text.hasSuffix(" ") {
            let text = String(last.text.dropLast())
            if text.isEmpty { trimmed.removeLast() } else { trimmed[trimmed.count - 1].text = text }
        }
        return trimmed
    }
}
