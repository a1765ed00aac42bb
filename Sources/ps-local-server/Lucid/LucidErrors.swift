import Hummingbird
import PSCore

/// Errors as Lucid's stack (a Python FastAPI app with pydantic models) answers them:
/// `{"detail":"Conversation not found"}` with the status, and 422 validation errors
/// `{"detail":[{"type","loc","msg","input"}]}` in pydantic v2's words.
enum LucidError {
    static func detail(_ status: HTTPResponse.Status, _ message: String) -> Refusal {
        Refusal(Reply.json(["detail": .string(message)], status: status))
    }

    static func notFound(_ what: String) -> Refusal { detail(.notFound, "\(what) not found") }

    static func validation(_ errors: [JSON]) -> Refusal {
        Refusal(Reply.json(["detail": .array(errors)], status: .unprocessableContent))
    }

    static func item(_ type: String, _ location: [JSON], _ message: String, input: JSON?) -> JSON {
        var object = JSONObject()
        object["type"] = .string(type)
        object["loc"] = .array(location)
        object["msg"] = .string(message)
        object["input"] = input ?? .null
        return .object(object)
    }

    /// The body an armed status fault answers with on this dialect.
    static func body(for status: Int) -> JSON {
        switch status {
        case 401: return ["detail": "Not authenticated"]
        case 403: return ["detail": "Forbidden"]
        case 404: return ["detail": "Not Found"]
        case 429: return ["detail": "Too many requests"]
        case 503: return ["detail": "Service temporarily unavailable"]
        case 504: return ["detail": "The AI provider did not answer in time"]
        default: return ["detail": "Internal Server Error"]
        }
    }
}

/// A request body checked field by field as a pydantic model would: every problem is
/// collected, then one 422 names them all.
struct LucidBody {
    let json: JSON
    private(set) var errors: [JSON] = []

    /// The body of `request`; a missing or malformed one is a 422 at once.
    static func read(_ request: inout Request) async throws -> LucidBody {
        let buffer = try await request.collectBody(upTo: 4 << 20)
        guard buffer.readableBytes > 0 else {
            throw LucidError.validation([LucidError.item("missing", ["body"], "Field required", input: nil)])
        }
        guard let json = try? JSON.parse(bytes: Array(buffer.readableBytesView)) else {
            throw LucidError.validation([LucidError.item("json_invalid", ["body", 0], "JSON decode error", input: [:])])
        }
        guard json.objectValue != nil else {
            throw LucidError.validation([LucidError.item(
                "model_attributes_type", ["body"], "Input should be a valid dictionary or object to extract fields from",
                input: json)])
        }
        return LucidBody(json: json)
    }

    mutating func string(_ key: String, required: Bool = false, minLength: Int = 0) -> String? {
        guard let value = json[key], !value.isNull else {
            if required { errors.append(LucidError.item("missing", ["body", .string(key)], "Field required", input: json)) }
            return nil
        }
        guard let text = value.stringValue else {
            errors.append(LucidError.item("string_type", ["body", .string(key)], "Input should be a valid string", input: value))
            return nil
        }
        guard text.count >= minLength else {
            errors.append(LucidError.item(
                "string_too_short", ["body", .string(key)], "String should have at least \(minLength) character", input: value))
            return nil
        }
        return text
    }

    mutating func int(_ key: String, default value: Int, range: ClosedRange<Int>) -> Int {
        guard let json = json[key], !json.isNull else { return value }
        guard let number = json.intValue.map({ Int($0) }), json.boolValue == nil else {
            errors.append(LucidError.item("int_type", ["body", .string(key)], "Input should be a valid integer", input: json))
            return value
        }
        return check(number, range, ["body", .string(key)], input: json) ?? value
    }

    mutating func double(_ key: String, default value: Double, range: ClosedRange<Double>) -> Double {
        guard let json = json[key], !json.isNull else { return value }
        guard let number = json.doubleValue, json.boolValue == nil else {
            errors.append(LucidError.item("float_type", ["body", .string(key)], "Input should be a valid number", input: json))
            return value
        }
        if number < range.lowerBound {
            errors.append(LucidError.item(
                "greater_than_equal", ["body", .string(key)], "Input should be greater than or equal to \(range.lowerBound)", input: json))
        } else if number > range.upperBound {
            errors.append(LucidError.item(
                "less_than_equal", ["body", .string(key)], "Input should be less than or equal to \(range.upperBound)", input: json))
        }
        return number
    }

    mutating func bool(_ key: String) -> Bool? {
        guard let json = json[key], !json.isNull else { return nil }
        guard let value = json.boolValue else {
            errors.append(LucidError.item("bool_type", ["body", .string(key)], "Input should be a valid boolean", input: json))
            return nil
        }
        return value
    }

    private mutating func check(_ number: Int, _ range: ClosedRange<Int>, _ location: [JSON], input: JSON) -> Int? {
        if number < range.lowerBound {
            errors.append(LucidError.item(
                "greater_than_equal", location, "Input should be greater than or equal to \(range.lowerBound)", input: input))
            return nil
        }
        if number > range.upperBound {
            errors.append(LucidError.item(
                "less_than_equal", location, "Input should be less than or equal to \(range.upperBound)", input: input))
            return nil
        }
        return number
    }

    /// Throws the 422 when a field was wrong.
    func validate() throws {
        if !errors.isEmpty { throw LucidError.validation(errors) }
    }
}

/// `limit`/`offset` (and other) query parameters, checked as FastAPI's `Query(ge=…, le=…)`.
struct LucidQuery {
    let request: Request
    private(set) var errors: [JSON] = []

    init(_ request: Request) { self.request = request }

    mutating func int(_ name: String, default value: Int, range: ClosedRange<Int>) -> Int {
        guard let text = request.query(name) else { return value }
        guard let number = Int(text) else {
            errors.append(LucidError.item(
                "int_parsing", ["query", .string(name)], "Input should be a valid integer, unable to parse string as an integer",
                input: .string(text)))
            return value
        }
        if number < range.lowerBound {
            errors.append(LucidError.item(
                "greater_than_equal", ["query", .string(name)], "Input should be greater than or equal to \(range.lowerBound)",
                input: .string(text)))
            return value
        }
        if number > range.upperBound {
            errors.append(LucidError.item(
                "less_than_equal", ["query", .string(name)], "Input should be less than or equal to \(range.upperBound)",
                input: .string(text)))
            return value
        }
        return number
    }

    /// pydantic's booleans in a query: true/false, 1/0, yes/no, on/off.
    mutating func bool(_ name: String) -> Bool? {
        guard let text = request.query(name) else { return nil }
        switch text.lowercased() {
        case "true", "1", "yes", "on", "t", "y": return true
        case "false", "0", "no", "off", "f", "n": return false
        default:
            errors.append(LucidError.item(
                "bool_parsing", ["query", .string(name)], "Input should be a valid boolean, unable to interpret input",
                input: .string(text)))
            return nil
        }
    }

    func validate() throws {
        if !errors.isEmpty { throw LucidError.validation(errors) }
    }
}
