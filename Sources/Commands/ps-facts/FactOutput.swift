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
        let percent = score.map { String(Int(($0 * 100).rounded())) + "%" } ?? ""
        rows.append([text("id"), active, text("category"), percent, fact.displayText("content")])
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
        var table = TextTable(headers: ["ID", "ON", "CATEGORY", showsSimilarity ? "SIMILAR" : "CONF", "FACT"])
        table.rightAligned = [3]
        for row in rows { table.add(row) }
        let out = table.render(width: Terminal.width(fd: 1), empty: "")
        try writer.writeText(out)
    }
}
