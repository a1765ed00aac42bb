import PSCore

/// `ps-history --list` on a terminal: one row per conversation (id, when it was last used,
/// messages when the server says, title), like `gh`'s lists. Piped, the records are written
/// as NDJSON instead. Titles are the server's text, made safe and cut to the width.
struct ConversationTable {
    private var table: TextTable = {
        var table = TextTable(headers: ["ID", "UPDATED", "MSGS", "TITLE"])
        table.hidesEmptyColumns = true
        table.rightAligned = [2]
        return table
    }()

    mutating func add(_ record: JSON) {
        func text(_ key: String) -> String? { record[key]?.stringValue.map(TerminalSafeText.sanitize) }
        let updated = text("lastMessageAt") ?? text("updatedAt") ?? text("createdAt") ?? ""
        let when = String(updated.prefix(16).map { $0 == "T" ? " " : $0 })
        let count = record["messageCount"]?.intValue.map { String($0) } ?? ""
        var title = record.displayText("title")
        if title.isEmpty { title = "(untitled)" }
        table.add([text("id") ?? "?", when, count, title])
    }

    func render(width: Int) -> String { table.render(width: width, empty: "No conversations.\n") }
}
