import PSCore
import PSNet
#if canImport(Glibc)
import Glibc
#endif

/// `ps-models` on a terminal: one aligned row per model (id, owner, then the name when the
/// server gives names and the creation date when it gives dates), made safe, the id cut to
/// the width. Piped, the records are written as NDJSON instead.
struct ModelTable {
    private let rows: [(id: String, owner: String, name: String, created: String)]
    private let showsName: Bool
    private let showsCreated: Bool

    init(_ models: [ModelInfo]) {
        rows = models.map { model in
            (TerminalSafeText.sanitize(model.id), model.ownedBy.map(TerminalSafeText.sanitize) ?? "",
             model.name.map(TerminalSafeText.sanitize) ?? "", model.created.map(Self.date) ?? "")
        }
        showsName = models.contains { $0.name != nil }
        showsCreated = !showsName || models.contains { $0.created != nil }
    }

    func render(width: Int) -> String {
        guard !rows.isEmpty else { return "No models.\n" }
        func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        let ownerWidth = max(5, rows.map(\.owner.count).max() ?? 0)
        let nameWidth = max(4, rows.map(\.name.count).max() ?? 0)
        let tail = 2 + ownerWidth + (showsName ? 2 + nameWidth : 0) + (showsCreated ? 2 + 10 : 0)
        let idWidth = min(max(2, rows.map(\.id.count).max() ?? 0), max(10, width - tail))
        func line(_ id: String, _ owner: String, _ name: String, _ created: String) -> String {
            var text = pad(id, idWidth) + "  " + pad(owner, ownerWidth)
            if showsName { text += "  " + pad(name, nameWidth) }
            if showsCreated { text += "  " + created }
            return String(text.reversed().drop { $0 == " " }.reversed()) + "\n"
        }
        var out = line("ID", "OWNER", "NAME", "CREATED")
        for row in rows {
            let id = row.id.count > idWidth ? String(row.id.prefix(idWidth - 1)) + "…" : row.id
            out += line(id, row.owner, row.name, row.created)
        }
        return out
    }

    /// `2026-11-22` in UTC.
    static func date(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))"
    }
}
