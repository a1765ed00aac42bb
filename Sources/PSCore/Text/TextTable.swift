/// Records shown on a terminal as aligned columns under a header, like `gh`'s lists: the
/// last column is cut to the width. Cells must already be safe for a terminal
/// (`JSON.displayText`).
public struct TextTable {
    public let headers: [String]
    public var indent: Int
    private var rows: [[String]] = []

    public init(headers: [String], indent: Int = 0) {
        self.headers = headers
        self.indent = indent
    }

    public mutating func add(_ row: [String]) { rows.append(row) }

    /// The table, or `empty` when it has no rows.
    public func render(width: Int, empty: String) -> String {
        guard !rows.isEmpty else { return empty }
        let widths = headers.indices.map { column in
            max(headers[column].count, rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0)
        }
        let margin = String(repeating: " ", count: indent)
        func line(_ cells: [String]) -> String {
            var out = margin
            for (column, cell) in cells.enumerated() {
                if column == cells.count - 1 {
                    let room = max(10, width - out.count)
                    out += cell.count > room ? String(cell.prefix(room - 1)) + "…" : cell
                } else {
                    out += cell + String(repeating: " ", count: widths[column] - cell.count + 2)
                }
            }
            return String(out.reversed().drop { $0 == " " }.reversed()) + "\n"
        }
        return line(headers) + rows.map(line).joined()
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
