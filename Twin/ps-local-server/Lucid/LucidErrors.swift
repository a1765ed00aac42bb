import Foundation
import Hummingbird
import PSCore

/// Errors as Lucid (lucid-agent, an Express app checking bodies with zod) answers them: always
/// `{"error":"…"}`. A body or parameter zod refuses is 400 `{"error":"Validation failed",
/// "details":[{field, message}]}` (the `validateBody` helper of every src/routes/*.ts file, e.g.
/// src/routes/users.ts:19-37); a path no route has is 404 `{"error":"Not found"}` and an error no
/// route catches (a malformed JSON body among them) is 500 `{"error":"Internal server error"}`
/// (src/index.ts:125-133).
enum LucidError {
    static func error(_ status: HTTPResponse.Status, _ message: String, details: String? = nil) -> Refusal {
        var body = JSONObject()
        body["error"] = .string(message)
        body["details"] = details.map(JSON.string)
        return Refusal(Reply.json(.object(body), status: status))
    }

    static func notFound(_ what: String) -> Refusal { error(.notFound, "\(what) not found") }

    /// What a route's catch-all answers: 500 with the route's own words.
    static func failed(_ message: String) -> Refusal { error(.internalServerError, message) }

    static func validation(_ details: [(field: String, message: String)]) -> Refusal {
        let items: [JSON] = details.map { ["field": .string($0.field), "message": .string($0.message)] }
        return Refusal(Reply.json(["error": "Validation failed", "details": .array(items)], status: .badRequest))
    }

    /// The body an armed status fault answers with on this dialect.
    static func body(for status: Int) -> JSON {
        switch status {
        case 404: return ["error": "Not found"]
        case 503: return ["error": "AI service temporarily unavailable"]
        case 504: return ["error": "Request timeout", "details": "The request took too long to process. Please try again."]
        default: return ["error": "Internal server error"]
        }
    }

    /// zod's `.uuid()`: 8-4-4-4-12 hex digits.
    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// A path parameter checked as `z.string().uuid(message)`: 400 when it is not one.
    static func requireUUID(_ value: String, field: String, _ message: String) throws -> String {
        guard isUUID(value) else { throw validation([(field, message)]) }
        return value
    }
}

/// A request body checked as a zod object schema: every field's problems are collected in
/// order, then one 400 names them all. Messages are zod's own ("Required", "Expected string,
/// received number") unless the schema gives one.
struct LucidBody {
    let json: JSONObject
    private(set) var details: [(field: String, message: String)] = []

    /// express.json (src/index.ts:44): no body, or one not sent as JSON (Content-Type), is
    /// `{}`; a malformed one goes to the error handler (500); a JSON array reaches zod, which
    /// expects an object.
    static func read(_ request: inout Request) async throws -> LucidBody {
        let buffer = try await request.collectBody(upTo: 10 << 20)
        let isJSON = request.headers[.contentType].map { $0.lowercased().contains("json") } ?? false
        guard buffer.readableBytes > 0, isJSON else { return LucidBody(json: JSONObject()) }
        guard let json = try? JSON.parse(bytes: Array(buffer.readableBytesView)),
              json.objectValue != nil || json.arrayValue != nil else {
            throw LucidError.error(.internalServerError, "Internal server error")
        }
        guard let object = json.objectValue else {
            throw LucidError.validation([("", "Expected object, received array")])
        }
        return LucidBody(json: object)
    }

    private static func typeName(_ value: JSON) -> String {
        if value.isNull { return "null" }
        if value.boolValue != nil { return "boolean" }
        if value.stringValue != nil { return "string" }
        if value.arrayValue != nil { return "array" }
        if value.objectValue != nil { return "object" }
        return "number"
    }

    /// The field's value when present (not undefined); a missing required one is "Required".
    private mutating func present(_ key: String, required: Bool) -> JSON? {
        guard let value = json[key] else {
            if required { details.append((key, "Required")) }
            return nil
        }
        return value
    }

    /// A string with its checks (each a test and its message), all run as zod runs them.
    mutating func string(_ key: String, required: Bool = false, _ checks: [(test: (String) -> Bool, message: String)] = [])
        -> String?
    {
        guard let value = present(key, required: required) else { return nil }
        guard let text = value.stringValue else {
            details.append((key, "Expected string, received \(Self.typeName(value))"))
            return nil
        }
        let failed = checks.filter { !$0.test(text) }
        details += failed.map { (key, $0.message) }
        return failed.isEmpty ? text : nil
    }

    mutating func uuid(_ key: String, required: Bool = true, _ message: String? = nil) -> String? {
        string(key, required: required, [(LucidError.isUUID, message ?? "Invalid uuid")])
    }

    /// `z.number()` with `.int()` when `integer`, and its bounds.
    mutating func number(_ key: String, integer: Bool = false, min: Double? = nil, max: Double? = nil,
                         minMessage: String? = nil, maxMessage: String? = nil) -> Double? {
        guard let value = present(key, required: false) else { return nil }
        guard value.boolValue == nil, let number = value.doubleValue else {
            details.append((key, "Expected number, received \(Self.typeName(value))"))
            return nil
        }
        var ok = true
        if integer, number.rounded() != number {
            details.append((key, "Expected integer, received float"))
            ok = false
        }
        if let min, number < min {
            details.append((key, minMessage ?? "Number must be greater than or equal to \(Self.text(min))"))
            ok = false
        }
        if let max, number > max {
            details.append((key, maxMessage ?? "Number must be less than or equal to \(Self.text(max))"))
            ok = false
        }
        return ok ? number : nil
    }

    /// `z.array(z.string().uuid()).min(…).max(…)`, when present.
    mutating func uuidArray(_ key: String, min: (Int, String), max: (Int, String)) -> [String]? {
        guard let value = present(key, required: false) else { return nil }
        guard let items = value.arrayValue else {
            details.append((key, "Expected array, received \(Self.typeName(value))"))
            return nil
        }
        let before = details.count
        for (index, item) in items.enumerated() {
            guard let text = item.stringValue else {
                details.append(("\(key).\(index)", "Expected string, received \(Self.typeName(item))"))
                continue
            }
            if !LucidError.isUUID(text) { details.append(("\(key).\(index)", "Invalid uuid")) }
        }
        if items.count < min.0 { details.append((key, min.1)) }
        if items.count > max.0 { details.append((key, max.1)) }
        return details.count == before ? items.compactMap(\.stringValue) : nil
    }

    /// `z.record(z.any())`: a JSON object when present.
    mutating func object(_ key: String) {
        guard let value = present(key, required: false), value.objectValue == nil else { return }
        details.append((key, "Expected object, received \(Self.typeName(value))"))
    }

    /// `z.enum(factCategories)` (fact.validation.ts:6-17), when present.
    mutating func category(_ key: String) -> String? {
        guard let value = present(key, required: false) else { return nil }
        let expected = LucidMemoryRoutes.categories.map { "'\($0)'" }.joined(separator: " | ")
        guard let text = value.stringValue else {
            details.append((key, "Expected \(expected), received \(Self.typeName(value))"))
            return nil
        }
        guard LucidMemoryRoutes.categories.contains(text) else {
            details.append((key, LucidMemoryRoutes.enumMessage(text)))
            return nil
        }
        return text
    }

    mutating func bool(_ key: String) -> Bool? {
        guard let value = present(key, required: false) else { return nil }
        guard let flag = value.boolValue else {
            details.append((key, "Expected boolean, received \(Self.typeName(value))"))
            return nil
        }
        return flag
    }

    private static func text(_ number: Double) -> String {
        number.rounded() == number ? String(Int(number)) : String(number)
    }

    /// Throws the 400 when a field was wrong.
    func validate() throws {
        if !details.isEmpty { throw LucidError.validation(details) }
    }

    // MARK: The checks Lucid's schemas use (src/validation/*.validation.ts)

    static func minLength(_ n: Int, _ message: String) -> (test: (String) -> Bool, message: String) {
        ({ $0.utf16.count >= n }, message)
    }

    static func maxLength(_ n: Int, _ message: String) -> (test: (String) -> Bool, message: String) {
        ({ $0.utf16.count <= n }, message)
    }

    /// `Intl.DateTimeFormat(undefined, {timeZone})` accepts it.
    static let timezone: (test: (String) -> Bool, message: String) = ({ TimeZone(identifier: $0) != nil }, "Invalid timezone")
}

/// `limit`/`offset` query parameters as Lucid's list schemas read them: JavaScript's
/// `parseInt` (leading digits; none is NaN), then a refine with the schema's message
/// (src/validation/message.validation.ts:55-73).
struct LucidQuery {
    let request: Request
    private(set) var details: [(field: String, message: String)] = []

    init(_ request: Request) { self.request = request }

    /// JavaScript's `parseInt(text, 10)`; nil for NaN.
    static func parseInt(_ text: String) -> Int? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        var sign = 1
        if let first = rest.first, first == "-" || first == "+" {
            sign = first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let value = Int(digits.prefix(18)) else { return nil }
        return sign * value
    }

    /// `limit`: default when absent or empty, else 1...max ("limit must be between 1 and MAX").
    mutating func limit(default value: Int, max: Int) -> Int {
        guard let text = request.query("limit"), !text.isEmpty else { return value }
        guard let number = Self.parseInt(text), number > 0, number <= max else {
            details.append(("limit", "limit must be between 1 and \(max)"))
            return value
        }
        return number
    }

    mutating func refuse(_ field: String, _ message: String) { details.append((field, message)) }

    mutating func offset() -> Int {
        guard let text = request.query("offset"), !text.isEmpty else { return 0 }
        guard let number = Self.parseInt(text), number >= 0 else {
            details.append(("offset", "offset must be >= 0"))
            return 0
        }
        return number
    }

    func validate() throws {
        if !details.isEmpty { throw LucidError.validation(details) }
    }
}
