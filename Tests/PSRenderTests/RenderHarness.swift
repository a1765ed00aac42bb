import PSCore
@testable import PSRender

/// Drives a RecordRenderer the way ps-render does and collects what it writes.
final class RenderHarness {
    private final class Sink { var text = "" }
    private let sink = Sink()
    let renderer: RecordRenderer

    /// Everything written so far.
    var output: String { sink.text }

    init(_ options: RenderOptions) {
        let sink = self.sink
        renderer = RecordRenderer(options: options, text: { sink.text += $0 })
    }

    /// Feeds records, flushing after each one (the slowest stream: every record is a read).
    func feed(_ records: [JSON]) throws {
        for record in records {
            try renderer.handle(record)
            try renderer.flush()
        }
    }

    func finish() throws -> String {
        try renderer.flush()
        try renderer.finish()
        return output
    }

    static func render(_ records: [JSON], _ options: RenderOptions) throws -> String {
        let harness = RenderHarness(options)
        try harness.feed(records)
        return try harness.finish()
    }
}

/// Builds the records ps-parts writes for a message, with its text parts cut into deltas.
enum PartRecords {
    static func object(_ pairs: [(String, JSON)]) -> JSON { .object(JSONObject(pairs)) }

    static func text(_ text: String, type: String = "text", state: String? = "done") -> JSON {
        var pairs: [(String, JSON)] = [("type", .string(type)), ("text", .string(text))]
        if let state { pairs.append(("state", .string(state))) }
        return object(pairs)
    }

    static func message(_ parts: [JSON], role: String = "assistant", id: String = "m1") -> JSON {
        object([("id", .string(id)), ("role", .string(role)), ("parts", .array(parts))])
    }

    /// The part records of `message`, each text or reasoning part delivered as `pieces(text)`.
    static func streamed(_ message: JSON, pieces: (String) -> [String]) -> [JSON] {
        var records: [JSON] = [object([("type", "message-start"), ("messageId", "m1"), ("role", message["role"] ?? "assistant")])]
        for (index, part) in (message["parts"]?.arrayValue ?? []).enumerated() {
            let type = part["type"]?.stringValue ?? ""
            guard type == "text" || type == "reasoning", let text = part["text"]?.stringValue else {
                records.append(object([("type", "part-start"), ("index", .integer(Int64(index))), ("part", part)]))
                continue
            }
            records.append(object([("type", "part-start"), ("index", .integer(Int64(index))),
                                   ("part", Self.text("", type: type, state: "streaming"))]))
            for piece in pieces(text) {
                records.append(object([("type", "part-delta"), ("index", .integer(Int64(index))), ("delta", .string(piece))]))
            }
            records.append(object([("type", "part-update"), ("index", .integer(Int64(index))), ("part", part)]))
        }
        records.append(object([("type", "message-end"), ("message", message), ("status", "complete")]))
        return records
    }

    /// Cuts text at the given unicode scalar offsets.
    static func split(_ text: String, at offsets: [Int]) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var pieces: [String] = []
        var start = 0
        for offset in offsets.sorted() where offset > start && offset < scalars.count {
            pieces.append(String(String.UnicodeScalarView(scalars[start..<offset])))
            start = offset
        }
        pieces.append(String(String.UnicodeScalarView(scalars[start...])))
        return pieces
    }
}
