/// Records shown on a terminal as aligned columns under a header, like `gh`'s lists: the one
/// table writer of the commands. Widths are terminal columns (`DisplayWidth`). A table wider
/// than the terminal is narrowed, the `flexible` columns (free text: a title, a fact) first,
/// then the widest of the others; a cell wider than its column is cut with "…". A cell is
/// never wrapped, so a word is never split across lines. Cells must already be safe for a
/// terminal (`JSON.displayText`, `TerminalSafeText.sanitize`).
public struct TextTable {
    public let headers: [String]
    public var indent: Int
    /// The columns narrowed first (default: the last one).
    public var flexible: Set<Int>
    /// Columns whose cells are aligned to the right (counts).
    public var rightAligned: Set<Int> = []
    /// Leave out the columns that are empty in every row (a field no record has).
    public var hidesEmptyColumns = false
    private var rows: [[String]] = []

    /// The gap between columns.
    static let gap = 2

    public init(headers: [String], indent: Int = 0) {
        self.headers = headers
        self.indent = indent
        flexible = headers.isEmpty ? [] : [headers.count - 1]
    }

    public mutating func add(_ row: [String]) { rows.append(row) }

    public var isEmpty: Bool { rows.isEmpty }

    /// The table, or `empty` when it has no rows.
    public func render(width: Int, empty: String) -> String {
        guard !rows.isEmpty else { return empty }
        func cell(_ row: [String], _ column: Int) -> String { column < row.count ? row[column] : "" }
        let columns = headers.indices.filter { column in !hidesEmptyColumns || rows.contains { !cell($0, column).isEmpty } }
        let natural = columns.map { column in
            max(DisplayWidth.of(headers[column]), rows.map { DisplayWidth.of(cell($0, column)) }.max() ?? 0)
        }
        let room = width - indent - Self.gap * max(0, columns.count - 1)
        let widths = Self.fit(
            natural, into: room, headers: columns.map { DisplayWidth.of(headers[$0]) },
            flexible: Set(columns.indices.filter { flexible.contains(columns[$0]) }))
        let margin = String(repeating: " ", count: indent)
        func line(_ cells: [String]) -> String {
            var out = margin
            for (index, column) in columns.enumerated() {
                let text = Self.truncate(cell(cells, column), toWidth: widths[index])
                let pad = String(repeating: " ", count: widths[index] - DisplayWidth.of(text))
                out += rightAligned.contains(column) ? pad + text : text + pad
                if index < columns.count - 1 { out += String(repeating: " ", count: Self.gap) }
            }
            return String(out.reversed().drop { $0 == " " }.reversed()) + "\n"
        }
        return line(headers) + rows.map(line).joined()
    }

    /// Column widths that fit `room`: the flexible columns are narrowed first (the widest
    /// first, down to 10 columns or their header), then the others (down to their header, at
    /// least 6), then all of them down to 3. What is still too wide stays so.
    public static func fit(_ natural: [Int], into room: Int, headers: [Int], flexible: Set<Int>) -> [Int] {
        var widths = natural
        let all = Set(natural.indices)
        let steps: [(Set<Int>, (Int) -> Int)] = [
            (flexible, { max(headers[$0], 10) }),
            (all.subtracting(flexible), { max(headers[$0], 6) }),
            (all, { _ in 3 }),
        ]
        for (columns, floor) in steps where widths.reduce(0, +) > room {
            widths = narrow(widths, columns: columns, floors: natural.indices.map { min(natural[$0], floor($0)) }, into: room)
        }
        return widths
    }

    /// `widths` with the widest of `columns` cut to a common cap (never below their floor),
    /// the largest cap that fits `room`; the columns left over go back to the cut columns,
    /// left to right.
    public static func narrow(_ widths: [Int], columns: Set<Int>, floors: [Int], into room: Int) -> [Int] {
        func capped(_ cap: Int) -> [Int] {
            widths.indices.map { columns.contains($0) ? max(floors[$0], min(widths[$0], cap)) : widths[$0] }
        }
        var low = 0, high = widths.max() ?? 0
        while low < high {
            let cap = (low + high + 1) / 2
            if capped(cap).reduce(0, +) <= room { low = cap } else { high = cap - 1 }
        }
        var result = capped(low)
        var spare = room - result.reduce(0, +)
        for index in result.indices where spare > 0 && result[index] < widths[index] && columns.contains(index) {
            result[index] += 1
            spare -= 1
        }
        return result
    }

    /// `text` in at most `width` terminal columns: as it is when it fits, else cut and ended
    /// with "…".
    public static func truncate(_ text: String, toWidth width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        guard width > 0 else { return "" }
        var kept = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars {
            let scalarWidth = DisplayWidth.of(scalar)
            if used + scalarWidth > width - 1 { break }
            kept.append(scalar)
            used += scalarWidth
        }
        return String(kept) + "…"
    }
}

extension JSON {
    /// A field as one line of text safe for a terminal: a string as it is, another value as
    /// JSON, "" when absent or null.
    public func displayText(_ key: String) -> String {
        guard let value = self[key] else { return "" }
        let raw: String
        switch value {
        case .string(let text): raw = text
        case .null: raw = ""
        default: raw = value.serialized()
        }
        return String(TerminalSafeText.sanitize(raw).map { $0 == "\n" || $0 == "\t" || $0 == "\r\n" ? " " : $0 })
    }
}
