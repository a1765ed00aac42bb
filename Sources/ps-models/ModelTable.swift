import PSCore
import PSNet
#if canImport(Glibc)
import Glibc
#endif

/// `ps-models` on a terminal: one aligned row per model (id, owner, creation date), ids made
/// safe and cut to the width. Piped, the records are written as NDJSON instead.
struct ModelTable {
    private let rows: [(id: String, owner: String, created: String)]

    init(_ models: [ModelInfo]) {
        rows = models.map { model in
            (TerminalSafeText.sanitize(model.id), model.ownedBy.map(TerminalSafeText.sanitize) ?? "",
             model.created.map(Self.date) ?? "")
        }
    }

    func render(width: Int) -> String {
        guard !rows.isEmpty else { return "No models.\n" }
        func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        let ownerWidth = max(5, rows.map(\.owner.count).max() ?? 0)
        let tail = 2 + ownerWidth + 2 + 10
        let idWidth = min(max(2, rows.map(\.id.count).max() ?? 0), max(10, width - tail))
        var out = pad("ID", idWidth) + "  " + pad("OWNER", ownerWidth) + "  CREATED\n"
        for row in rows {
            let id = row.id.count > idWidth ? String(row.id.prefix(idWidth - 1)) + "…" : row.id
            out += pad(id, idWidth) + "  " + pad(row.owner, ownerWidth) + "  " + row.created + "\n"
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
