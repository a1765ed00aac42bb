import PSCore
import PSNet
#if canImport(Glibc)
import Glibc
#endif

/// `ps-models` on a terminal: one row per model (id, owner, and the name and the creation
/// date when the server gives them: PageSpace's catalog has no dates, so that column is left
/// out there), made safe. Piped, the records are written as NDJSON instead.
struct ModelTable {
    private var table = TextTable(headers: ["ID", "OWNER", "NAME", "CREATED"])

    init(_ models: [ModelInfo]) {
        table.hidesEmptyColumns = true
        table.flexible = [0, 2]
        for model in models {
            table.add([model.id, model.ownedBy ?? "", model.name ?? "", model.created.map(Self.date) ?? ""]
                .map(TerminalSafeText.sanitize))
        }
    }

    func render(width: Int) -> String { table.render(width: width, empty: "No models.\n") }

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
