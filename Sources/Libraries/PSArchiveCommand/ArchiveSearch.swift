import PSArchive
import PSCore

/// `ps-search --archive` and `ps-archive-postgres search`: the archive's hits, best first. In a
/// pipe one record per hit, the message record with its `source`, `conversation` (the stored
/// conversation record, else its id), `rank` (lower is better) and `snippet` (matches in
/// [brackets]); on a terminal a list: conversation title, date and role, then the snippet with
/// the matches bold.
public struct ArchiveSearch {
    let query: ArchiveQuery
    let table: Bool

    public init(query: ArchiveQuery, table: Bool) {
        self.query = query
        self.table = table
    }

    public func run(_ store: ArchiveStore) throws {
        let writer = RecordWriter()
        try store.search(query) { hit in
            if table {
                try writer.writeText(Self.listEntry(hit, color: Terminal.colorEnabled()))
            } else {
                try writer.write(Self.record(hit))
            }
        }
    }

    static func record(_ hit: ArchiveHit) throws -> JSON {
        var message = (try? JSON.parse(hit.message))?.objectValue ?? JSONObject()
        message["source"] = .string(hit.source)
        if let conversation = hit.conversation.flatMap({ try? JSON.parse($0) }) {
            message["conversation"] = conversation
        } else if let id = (message["conversationId"] ?? message["metadata"]?["conversationId"])?.stringValue {
            message["conversation"] = .object(JSONObject([("id", .string(id))]))
        }
        message["rank"] = .real(hit.rank)
        message["snippet"] = .string(marked(hit.snippet, start: "[", end: "]", sanitize: false))
        return .object(message)
    }

    /// Two lines and a blank one: "TITLE  DATE  ROLE" and the indented snippet.
    static func listEntry(_ hit: ArchiveHit, color: Bool) -> String {
        let message = (try? JSON.parse(hit.message)) ?? .null
        let conversation = hit.conversation.flatMap { try? JSON.parse($0) }
        let title = conversation?["title"]?.stringValue ?? (message["conversationId"]?.stringValue).map { "conversation \($0)" }
            ?? "(no conversation)"
        let date = message["createdAt"]?.stringValue.map { String($0.prefix(16).map { $0 == "T" ? " " : $0 }) } ?? ""
        let role = message["role"]?.stringValue ?? ""
        let heading = [title, date, role].filter { !$0.isEmpty }.map(TerminalSafeText.sanitize).joined(separator: "  ")
        let snippet = color ? marked(hit.snippet, start: "\u{1B}[1m", end: "\u{1B}[22m", sanitize: true)
            : marked(hit.snippet, start: "[", end: "]", sanitize: true)
        return (color ? "\u{1B}[1m\(heading)\u{1B}[22m" : heading) + "\n    " + snippet + "\n\n"
    }

    /// The snippet with its match markers replaced; on a terminal, the text between them made
    /// safe (line ends become spaces) first, so only the markers' sequences reach it. The markers
    /// are control characters, which Unicode never joins to a neighbour: they are found as bytes.
    static func marked(_ snippet: String, start: String, end: String, sanitize: Bool) -> String {
        let startByte = ArchiveHit.matchStart.asciiValue!, endByte = ArchiveHit.matchEnd.asciiValue!
        let utf8 = snippet.utf8
        var out = ""
        out.reserveCapacity(utf8.count + 8 * (start.utf8.count + end.utf8.count))
        var pieceStart = utf8.startIndex
        func flush(upTo index: String.UTF8View.Index) {
            let piece = Substring(utf8[pieceStart..<index])
            out += sanitize ? TerminalSafeText.sanitize(String(piece.map { $0.isNewline ? " " : $0 })) : String(piece)
        }
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == startByte || byte == endByte {
                flush(upTo: index)
                out += byte == startByte ? start : end
                pieceStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        flush(upTo: utf8.endIndex)
        return out
    }
}
