/// Formats without text ids (the simplified chunks of late-2025 documentation, the v4 data stream, Gemini's events)
/// send bare pieces of text. These become UI stream chunks: consecutive pieces of one kind make one
/// text or reasoning part, opened with a made-up id and closed when something else comes.
struct TextRuns: Sendable {
    private var open: (kind: String, id: String)?
    private var count = 0

    var isOpen: Bool { open != nil }
    /// "text" or "reasoning" while a run is open.
    var openKind: String? { open?.kind }

    /// The chunks for one piece of text (`kind` is "text" or "reasoning").
    mutating func piece(_ kind: String, _ text: String) -> [JSONObject] {
        var chunks: [JSONObject] = []
        if open?.kind != kind {
            chunks = close()
            count += 1
            let id = "\(kind)-\(count)"
            open = (kind, id)
            chunks.append(JSONObject([("type", .string(kind + "-start")), ("id", .string(id))]))
        }
        chunks.append(JSONObject([("type", .string(kind + "-delta")), ("id", .string(open!.id)), ("delta", .string(text))]))
        return chunks
    }

    /// Ends the open run, if any.
    mutating func close() -> [JSONObject] {
        guard let run = open else { return [] }
        open = nil
        return [JSONObject([("type", .string(run.kind + "-end")), ("id", .string(run.id))])]
    }
}

/// The `data` that formats before the UI message stream attach to a message (v4's `2:` lines, the
/// simplified `{"type":"data"}` chunks) becomes a data part of this type.
public enum LegacyData {
    public static let partType = "data-legacy"
}
