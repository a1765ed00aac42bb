import PSCore

/// Fact records as NDJSON, or on a terminal a readable table: id, on/off, category,
/// confidence (or similarity, for a search), content. The server's text is made safe.
struct FactOutput {
    let writer = RecordWriter()
    let asTable = Terminal.isTerminal(1)
    private var rows: [[String]] = []
    private var showsSimilarity = false

    mutating func add(_ fact: JSON, similarity: Double?) throws {
        guard asTable else { return try writer.write(fact) }
        func text(_ key: String) -> String { fact[key]?.stringValue.map(TerminalSafeText.sanitize) ?? "" }
        let active = fact["is_active"]?.boolValue == false ? "off" : "on"
        let score = similarity ?? fact["confidence"]?.doubleValue
        if similarity != nil { showsSimilarity = true }
        let content = String(text("content").map { $0 == "\n" || $0 == "\t" ? " " : $0 })
        rows.append([text("id"), active, text("category"), score.map { String(Int(($0 * 100).rounded())) + "%" } ?? "", content])
    }

    /// One fact, as a record or a one-row table.
    static func writeOne(_ fact: JSON) throws {
        var output = FactOutput()
        try output.add(fact, similarity: nil)
        try output.finish(empty: "")
    }

    func finish(empty: String) throws {
        guard asTable else { return }
        guard !rows.isEmpty else {
            if !empty.isEmpty { try writer.writeText(empty + "\n") }
            return
        }
        let header = ["ID", "ON", "CATEGORY", showsSimilarity ? "SIMILAR" : "CONF", "FACT"]
        let widths = (0..<4).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        let width = Terminal.width(fd: 1)
        var out = ""
        for row in [header] + rows {
            var line = ""
            for column in 0..<4 { line += row[column] + String(repeating: " ", count: widths[column] - row[column].count + 2) }
            let room = max(10, width - line.count)
            let content = row[4].count > room ? String(row[4].prefix(room - 1)) + "…" : row[4]
            out += line + content + "\n"
        }
        try writer.writeText(out)
    }
}
