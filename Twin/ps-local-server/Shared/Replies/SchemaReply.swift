import PSCore

/// The scripted answer to a request for JSON that matches a schema: OpenAI's `response_format`
/// `json_schema` (ChatRequest), or, on every other API, the schema asked for in words after the
/// message ("…matches this JSON Schema:" then the schema on one line, as ps-send writes it). The
/// answer is the schema's simplest instance (SchemaExample), so tests can predict it. Keywords,
/// case-insensitive: "wrong json" in the message gets a reply in prose instead (a repair
/// message, which carries no words of the user's, then gets the right one); "always wrong"
/// in the schema (its description, say) gets prose every time; "fenced json" puts the JSON in
/// a ```json block, as models often do.
enum SchemaReply {
    static let marker = "matches this JSON Schema:\n"
    static let prose = "Sure! The answer is forty-two, give or take."

    static func answer(to question: String, schema given: JSON?) -> String? {
        guard let schema = given ?? schemaInWords(question) else { return nil }
        let lowered = question.lowercased()
        if lowered.contains("wrong json") || schema.serialized().lowercased().contains("always wrong") { return prose }
        let json = SchemaExample(root: schema).value(for: schema, depth: 0).serialized()
        return lowered.contains("fenced json") ? "```json\n" + json + "\n```" : json
    }

    /// The schema after the marker, on the line that follows it.
    static func schemaInWords(_ question: String) -> JSON? {
        guard let range = question.range(of: marker, options: .backwards) else { return nil }
        let line = question[range.upperBound...].prefix { $0 != "\n" }
        return try? JSON.parse(String(line))
    }
}

/// The simplest value a schema takes: const, else enum's first, else by type (the properties
/// of an object, one element of an array, a string of minLength, a number within its bounds);
/// anyOf/oneOf by its first schema, a $ref (within the schema) by what it names.
struct SchemaExample {
    let root: JSON

    func value(for schema: JSON, depth: Int) -> JSON {
        guard depth < 16, case .object(let keywords) = schema else { return .null }
        if let constant = keywords["const"] { return constant }
        if let first = keywords["enum"]?.arrayValue?.first { return first }
        if let ref = keywords["$ref"]?.stringValue, ref.hasPrefix("#") {
            var here = root
            for token in ref.dropFirst().split(separator: "/") {
                here = here[String(token).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")] ?? .null
            }
            return value(for: here, depth: depth + 1)
        }
        if let first = (keywords["anyOf"] ?? keywords["oneOf"])?.arrayValue?.first { return value(for: first, depth: depth + 1) }
        let type = keywords["type"]?.stringValue ?? keywords["type"]?.arrayValue?.first?.stringValue
            ?? (keywords["properties"] != nil ? "object" : keywords["items"] != nil ? "array" : "string")
        switch type {
        case "object":
            var object = JSONObject()
            for (name, property) in keywords["properties"]?.objectValue ?? JSONObject() {
                object[name] = value(for: property, depth: depth + 1)
            }
            return .object(object)
        case "array":
            guard let items = keywords["items"] else { return [] }
            return [value(for: items, depth: depth + 1)]
        case "integer", "number":
            let low = keywords["minimum"]?.doubleValue, high = keywords["maximum"]?.doubleValue
            let number = low.map { $0.rounded(.up) } ?? min(high ?? 1, 1).rounded(.down)
            return .integer(Int64(number))
        case "boolean": return true
        case "null": return .null
        default:
            let length = Int(keywords["minLength"]?.intValue ?? 0)
            let text = "example"
            return .string(text.count >= length ? text : text + String(repeating: "x", count: length - text.count))
        }
    }
}
