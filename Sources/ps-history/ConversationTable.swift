import PSCore

/// `ps-history --list` on a terminal: one aligned row per conversation (id, when it was last
/// used, messages when the server says, title), like `gh`'s lists. Piped, the records are
/// written as NDJSON instead. Titles are the server's text, made safe and cut to the width.
struct ConversationTable {
    private var rows: [(id: String, updated: String, count: String, title: String)] = []

    mutating func add(_ record: JSON) {
        func text(_ key: String) -> String? { record[key]?.stringValue.map(TerminalSafeText.sanitize) }
        let updated = text("lastMessageAt") ?? text("updatedAt") ?? text("createdAt") ?? ""
        let id: String = text("id") ?? "?"
        let when = String(updated.prefix(16).map { $0 == "T" ? " " : $0 })
        var count = ""
        if let messages = record["messageCount"]?.intValue { count = String(messages) }
        var title: String = text("title") ?? ""
        if title.isEmpty { title = "(untitled)" }
        title = String(title.map { $0 == "\n" || $0 == "\t" ? " " : $0 })
        rows.append((id: id, updated: when, count: count, title: title))
    }

    func render(width: Int) -> String {
        guard !rows.isEmpty else { return "No conversations.\n" }
        let idWidth = max(2, rows.map(\.id.count).max() ?? 0)
        let countWidth = rows.map(\.count.count).max() ?? 0
        func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        var header = pad("ID", idWidth) + "  " + pad("UPDATED", 16) + "  "
        if countWidth > 0 { header += pad("MSGS", max(4, countWidth)) + "  " }
        let titleWidth = max(10, width - header.count)
        var out = header + "TITLE\n"
        for row in rows {
            var line = pad(row.id, idWidth) + "  " + pad(row.updated, 16) + "  "
            if countWidth > 0 {
                let count = String(repeating: " ", count: max(0, max(4, countWidth) - row.count.count)) + row.count
                line += count + "  "
            }
            let title = row.title.count > titleWidth ? String(row.title.prefix(titleWidth - 1)) + "…" : row.title
            out += line + title + "\n"
        }
        return out
    }
}
