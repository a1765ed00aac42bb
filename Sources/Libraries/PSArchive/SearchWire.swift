import PSCore

/// What ps-search and its helper (`ps-archive-postgres --serve-search`, SearchHelper) say to each other,
/// one NDJSON line each: the request `{"db":URL,"query":{…}}` on the helper's standard input;
/// on its standard output one `{"source","message","conversation"?,"rank","snippet"}` per hit,
/// best first, and for a failure one last `{"error":MESSAGE,"status":EXIT}`.
public enum SearchWire {
    public enum Reply {
        case hit(ArchiveHit)
        case failure(ToolError)
    }

    public static func request(db: String, query: ArchiveQuery) -> JSON {
        let fields: [(String, String?)] = [
            ("text", query.text), ("source", query.source), ("conversationId", query.conversationId),
            ("role", query.role), ("since", query.since), ("until", query.until),
        ]
        var object = JSONObject(fields.compactMap { key, value in value.map { (key, JSON.string($0)) } })
        object["limit"] = .integer(Int64(query.limit))
        return .object(JSONObject([("db", .string(db)), ("query", .object(object))]))
    }

    /// The request's database and query; a ToolError (exit 2) for a line that is not one.
    public static func readRequest(_ line: UnsafeRawBufferPointer) throws -> (db: String, query: ArchiveQuery) {
        guard let request = try? JSON.parse(line), let db = request["db"]?.stringValue, let query = request["query"],
              let text = query["text"]?.stringValue, let limit = query["limit"]?.intValue, limit > 0
        else { throw ToolError(.usage, "\(SearchHelper.argument): not a search request") }
        return (db, ArchiveQuery(text: text, source: query["source"]?.stringValue, conversationId: query["conversationId"]?.stringValue,
                                 role: query["role"]?.stringValue, since: query["since"]?.stringValue,
                                 until: query["until"]?.stringValue, limit: Int(clamping: limit)))
    }

    public static func hit(_ hit: ArchiveHit) -> JSON {
        var object = JSONObject([("source", .string(hit.source)), ("message", .string(hit.message))])
        object["conversation"] = hit.conversation.map(JSON.string)
        object["rank"] = .real(hit.rank)
        object["snippet"] = .string(hit.snippet)
        return .object(object)
    }

    public static func failure(_ error: ToolError) -> JSON {
        .object(JSONObject([("error", .string(error.message)), ("status", .integer(Int64(error.status.rawValue)))]))
    }

    /// One line of the helper's output.
    public static func reply(_ line: UnsafeRawBufferPointer) throws -> Reply {
        let value = try? JSON.parse(line)
        if let message = value?["error"]?.stringValue, let status = value?["status"]?.intValue {
            return .failure(ToolError(ExitStatus(rawValue: Int32(clamping: status)) ?? .failure, message))
        }
        guard let value, let source = value["source"]?.stringValue, let message = value["message"]?.stringValue,
              let rank = value["rank"]?.doubleValue, let snippet = value["snippet"]?.stringValue
        else { throw ToolError(.failure, "\(PostgresHelper.name) \(SearchHelper.argument): a reply that is not a search hit") }
        return .hit(ArchiveHit(source: source, message: message, conversation: value["conversation"]?.stringValue,
                               rank: rank, snippet: snippet))
    }

    /// A value as one NDJSON line.
    public static func line(_ value: JSON) -> [UInt8] {
        var bytes: [UInt8] = []
        value.write(to: &bytes)
        bytes.append(0x0A)
        return bytes
    }
}
