/// Takes final lines in order, as they are rendered: a long finished text is written block by
/// block and let go, so memory follows the block being rendered, not the message.
final class LineSink {
    private let body: (StyledLine) -> Void
    /// Lines taken so far.
    private(set) var count = 0

    init(_ body: @escaping (StyledLine) -> Void) {
        self.body = body
    }

    func take(_ line: StyledLine) {
        count += 1
        body(line)
    }

    func take<Lines: Sequence>(_ lines: Lines) where Lines.Element == StyledLine {
        for line in lines { take(line) }
    }

    /// A sink that leaves out the first `count` lines it is given, then passes the rest on here.
    func skipping(_ count: Int) -> LineSink {
        guard count > 0 else { return self }
        var left = count
        return LineSink { line in
            if left > 0 { left -= 1 } else { self.take(line) }
        }
    }

    /// A sink that puts `first` before the first line and `rest` before the others, as
    /// RenderedBlock.prefixed does, then passes them on here.
    func prefixed(first: StyledLine, rest: StyledLine) -> LineSink {
        var isFirst = true
        return LineSink { line in
            self.take(RenderedBlock.prefix(line, with: isFirst ? first : rest))
            isFirst = false
        }
    }

    /// Collects what it is given (for a caller that wants the lines as a block).
    static func collecting() -> (sink: LineSink, lines: () -> [StyledLine]) {
        final class Lines { var all: [StyledLine] = [] }
        let lines = Lines()
        return (LineSink { lines.all.append($0) }, { lines.all })
    }
}
