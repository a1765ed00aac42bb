/// The block still being written, drawn on a terminal below the finished output and redrawn in
/// place as it grows; finished output is appended above it.
///
/// Each frame is one write: erase the region (back to its first row, erase below), append what
/// became final, draw the region again. The region is drawn with line wrap off and each line cut
/// to the width, so a line is exactly one row and erasing knows how far to go back; it shows at
/// most one row less than the window (its last rows), since rows that scrolled off cannot be
/// erased. The cursor rests at the end of the region's last line.
public final class LiveRegion {
    public struct Size: Equatable, Sendable {
        public var columns: Int
        public var rows: Int

        public init(columns: Int, rows: Int) {
            self.columns = max(1, columns)
            self.rows = max(2, rows)
        }
    }

    public var size: Size
    private let ansi: Bool
    private let write: (String) throws -> Void
    /// What the next write starts with: erasing, then finished output.
    private var frame = ""
    /// Rows of the region on the screen.
    private var rowsShown = 0
    private var linesShown: [StyledLine] = []

    /// `ansi`: styles in the region as in the finished output (cursor movement is used either way).
    public init(size: Size, ansi: Bool, write: @escaping (String) throws -> Void) {
        self.size = size
        self.ansi = ansi
        self.write = write
    }

    /// Finished output: written above the region at the next `show`.
    public func append(_ text: String) {
        erase()
        frame += text
    }

    /// Draws `lines` as the region (none: the region goes away), with whatever was appended.
    public func show(_ lines: [StyledLine]) throws {
        guard !frame.isEmpty || lines != linesShown else { return }
        erase()
        let visible = lines.suffix(size.rows - 1)
        if !visible.isEmpty {
            // Synchronized update (terminals that know it draw the frame at once), no line wrap.
            var region = "\u{1B}[?2026h\u{1B}[?7l"
            for (index, line) in visible.enumerated() {
                if index > 0 { region += "\r\n" }
                region += LineEncoder.encode(Self.cut(line, to: size.columns), ansi: ansi)
            }
            frame += region + "\u{1B}[?7h\u{1B}[?2026l"
        }
        rowsShown = visible.count
        linesShown = lines
        let text = frame
        frame = ""
        try write(text)
    }

    /// Takes the region off the screen now, writing what was appended, so that another writer's
    /// line (a question on stderr) comes below the finished output; the next `show` draws the
    /// region again below it.
    public func clear() throws {
        erase()
        linesShown = []
        let text = frame
        frame = ""
        if !text.isEmpty { try write(text) }
    }

    /// The window changed size: the region is drawn again at the next `show`.
    public func resize(_ size: Size) {
        // Rows are counted as drawn: each line is one row, cut to the old width. A narrower window
        // that wraps old rows again is the terminal's doing; erasing still starts at the region's
        // first row on terminals that cut them (xterm, and most).
        self.size = size
        linesShown = []
    }

    /// The text that leaves the terminal as it was: styles reset, line wrap on, the cursor after
    /// the region (for an interrupt).
    public static let restore = "\u{1B}[0m\u{1B}[?7h\u{1B}[?2026l"

    private func erase() {
        guard rowsShown > 0 else { return }
        frame += "\r" + (rowsShown > 1 ? "\u{1B}[\(rowsShown - 1)A" : "") + "\u{1B}[J"
        rowsShown = 0
    }

    /// The line cut to `columns` display columns.
    static func cut(_ line: StyledLine, to columns: Int) -> StyledLine {
        line.displayWidth > columns ? line.cut(toColumns: columns).line : line
    }
}
