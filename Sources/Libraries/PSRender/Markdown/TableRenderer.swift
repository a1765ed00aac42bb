import PSCore

/// GFM tables with aligned columns, measured in terminal columns (a CJK character takes two).
/// Columns that do not fit the width are narrowed and their cells wrapped between words; a
/// column is not narrowed below its longest word while the table can fit otherwise, and a word
/// wider than its column is cut with "…", never split over two lines.
struct TableRenderer {
    let ansi: Bool
    let base: TextStyle
    let inline: InlineRenderer

    private static let columnSeparator = " │ "

    func render(_ table: MarkdownNode, alignments: [MarkdownNode.Alignment], width: Int) -> [StyledLine] {
        let rows = table.children.filter {
            if case .tableRow = $0.kind { return true } else { return false }
        }
        let columnCount = max(alignments.count, rows.map(\.children.count).max() ?? 0)
        guard columnCount > 0 else { return [] }

        var cells: [[[InlinePiece]]] = []
        var isHeader: [Bool] = []
        for row in rows {
            let header: Bool
            if case .tableRow(let value) = row.kind { header = value } else { header = false }
            var style = base
            if header { style.bold = true }
            var rowCells = row.children.map { inline.pieces($0, base: style) }
            while rowCells.count < columnCount { rowCells.append([]) }
            cells.append(Array(rowCells.prefix(columnCount)))
            isHeader.append(header)
        }

        let natural = (0..<columnCount).map { column in
            cells.map { Wrapper.wrap($0[column], width: Int.max / 2).map(\.displayWidth).max() ?? 0 }.max() ?? 0
        }
        let longestWords = (0..<columnCount).map { column in cells.map { Wrapper.longestWord($0[column]) }.max() ?? 0 }
        let widths = fit(
            natural.map { max(1, $0) }, words: longestWords,
            into: width - DisplayWidth.of(Self.columnSeparator) * (columnCount - 1))

        var lines: [StyledLine] = []
        let separatorStyle = { () -> TextStyle in var s = base; s.dim = ansi; return s }()
        for (rowIndex, row) in cells.enumerated() {
            let wrapped = row.enumerated().map { Wrapper.wrap($0.element, width: widths[$0.offset], truncatingLongWords: true) }
            let height = wrapped.map(\.count).max() ?? 1
            for lineIndex in 0..<height {
                var line: StyledLine = []
                for column in 0..<columnCount {
                    if column > 0 { line.append(Span(Self.columnSeparator, separatorStyle)) }
                    let content = lineIndex < wrapped[column].count ? wrapped[column][lineIndex] : []
                    let alignment = column < alignments.count ? alignments[column] : .none
                    line += padded(content, to: widths[column], alignment: alignment)
                }
                lines.append(trimmingTrailingSpaces(line))
            }
            if isHeader[rowIndex] {
                let rule = widths.map { String(repeating: "─", count: $0) }.joined(separator: "─┼─")
                lines.append([Span(rule, separatorStyle)])
            }
        }
        return lines
    }

    /// Column widths that fit `available`: the widest columns are narrowed first, down to a cap
    /// chosen so that the total fits, but not below their longest word (`words`) while that
    /// can fit; when it cannot, the longest words are narrowed the same way (never below 1).
    func fit(_ natural: [Int], words: [Int], into available: Int) -> [Int] {
        guard natural.reduce(0, +) > available else { return natural }
        let floors = natural.indices.map { max(1, min(natural[$0], words[$0])) }
        let all = Set(natural.indices)
        if floors.reduce(0, +) <= available { return TextTable.narrow(natural, columns: all, floors: floors, into: available) }
        return TextTable.narrow(floors, columns: all, floors: floors.map { _ in 1 }, into: available)
    }

    private func padded(_ content: StyledLine, to width: Int, alignment: MarkdownNode.Alignment) -> StyledLine {
        let gap = max(0, width - content.displayWidth)
        let left: Int
        switch alignment {
        case .right: left = gap
        case .center: left = gap / 2
        case .none, .left: left = 0
        }
        var line: StyledLine = []
        if left > 0 { line.append(Span(String(repeating: " ", count: left), base)) }
        line += content
        if gap - left > 0 { line.append(Span(String(repeating: " ", count: gap - left), base)) }
        return line
    }

    private func trimmingTrailingSpaces(_ line: StyledLine) -> StyledLine {
        var line = line
        while let last = line.last, last.text.hasSuffix(" "), last.style.link == nil {
            let text = String(last.text.dropLast())
            if text.isEmpty { line.removeLast() } else { line[line.count - 1].text = text }
        }
        return line
    }
}
