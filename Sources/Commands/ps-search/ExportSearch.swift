import PSCore

/// `ps-search` over an export: message records in, one `{conversationId?, messageId, role,
/// createdAt?, snippet}` record out per message whose text contains the query (ignoring case),
/// in input order, each written as soon as its input has been read.
struct ExportSearch {
    let needle: [String]
    let table: Bool

    init(query: String, table: Bool) {
        needle = query.map { $0.lowercased() }
        self.table = table
    }

    func run(path: String?) throws {
        if path == nil || path == "-" {
            try Terminal.refuseInteractiveStdin(usage: "usage: ps-history ... | ps-search QUERY   (or ps-search --in FILE QUERY)")
        }
        let lines = RecordLineReader(try ChunkReader.open(path: path))
        let writer = RecordWriter()
        var rows = TextTable(headers: ["CONVERSATION", "MESSAGE", "ROLE", "SNIPPET"])
        defer { if table { try? writer.writeText(rows.render(width: Terminal.width(fd: 1), empty: "")) } }
        do {
            try lines.forEachLine({ line, number in
                let record: JSON
                do {
                    record = try JSON.parse(line)
                } catch let error as JSONParseError {
                    throw ToolError(.malformedInput, "\(lines.name): line \(number): not JSON (\(error.message))")
                }
                guard record.objectValue != nil else {
                    throw ToolError(.malformedInput, "\(lines.name): line \(number): not a message record (a JSON object)")
                }
                guard let hit = match(record) else { return }
                if table {
                    rows.add([hit.displayText("conversationId"), hit.displayText("messageId"), hit.displayText("role"),
                              hit.displayText("snippet")])
                } else {
                    writer.append { hit.write(to: &$0); $0.append(0x0A) }
                }
            }, afterRead: writer.flush)
            try writer.flush()
        } catch let error as ToolError {
            try writer.flush()
            throw error
        }
    }

    /// The result record for a message that contains the query, else nil.
    func match(_ message: JSON) -> JSON? {
        let text = Self.text(of: message)
        guard let snippet = Snippet(text: text, needle: needle) else { return nil }
        var hit = JSONObject()
        hit["conversationId"] = (message["conversationId"] ?? message["metadata"]?["conversationId"]).flatMap(\.stringValue).map(JSON.string)
        hit["messageId"] = message["id"]?.stringValue.map(JSON.string) ?? .null
        hit["role"] = message["role"]?.stringValue.map(JSON.string)
        hit["createdAt"] = message["createdAt"]
        hit["snippet"] = .string(snippet.text)
        return .object(hit)
    }

    /// The text parts joined by newlines; a record with no parts but a string `content` (an
    /// older server's stored message) is that string.
    static func text(of message: JSON) -> String {
        if let parts = message["parts"]?.arrayValue {
            return parts.filter { $0["type"]?.stringValue == "text" }.compactMap { $0["text"]?.stringValue }
                .joined(separator: "\n")
        }
        return message["content"]?.stringValue ?? ""
    }
}

/// The words around the first match: up to `context` characters each side, runs of white
/// space made one space, "…" where the text was cut. Found in one pass that holds only the last
/// `context` + query characters' positions, so a huge message costs no more than its text.
struct Snippet {
    static let context = 40
    let text: String

    init?(text: String, needle: [String]) {
        let length = needle.count
        guard length > 0 else { return nil }
        let kept = Self.context + length
        var positions = [String.Index](repeating: text.startIndex, count: kept)  // a ring
        var window = [String](repeating: "", count: length)  // the last characters, lowercased; a ring
        var count = 0
        var index = text.startIndex
        var matchEnd: String.Index?
        while index < text.endIndex {
            positions[count % kept] = index
            window[count % length] = text[index].lowercased()
            count += 1
            index = text.index(after: index)
            if count >= length && (0..<length).allSatisfy({ window[(count - length + $0) % length] == needle[$0] }) {
                matchEnd = index
                break
            }
        }
        guard var to = matchEnd else { return nil }
        let from = max(0, count - length - Self.context)
        for _ in 0..<Self.context where to < text.endIndex { to = text.index(after: to) }
        var out = from > 0 ? "…" : ""
        var lastWasSpace = false
        for character in text[positions[from % kept]..<to] {
            if character.isWhitespace {
                if !lastWasSpace { out.append(" ") }
                lastWasSpace = true
            } else {
                out.append(character)
                lastWasSpace = false
            }
        }
        if to < text.endIndex { out += "…" }
        self.text = out
    }
}
