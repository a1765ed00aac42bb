import CJansson

/// Why a text is not JSON, with jansson's position (1-based line and column).
public struct JSONParseError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public let line: Int
    public let column: Int
    public var description: String { "\(message) at line \(line), column \(column)" }
}

extension JSON {
    /// Parses one JSON text (any value, not only objects). Invalid UTF-8 is an error.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws -> JSON {
        var error = json_error_t()
        let flags = JSON_DECODE_ANY | JSON_ALLOW_NUL
        guard let base = bytes.baseAddress,
            let root = json_loadb(base.assumingMemoryBound(to: CChar.self), bytes.count, Int(flags), &error)
        else {
            if bytes.isEmpty { throw JSONParseError(message: "empty input", line: 1, column: 1) }
            let message = withUnsafeBytes(of: &error.text) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw JSONParseError(message: message, line: Int(error.line), column: Int(error.column))
        }
        defer { json_decref(root) }
        return JSON(jansson: root)
    }

    public static func parse(bytes: [UInt8]) throws -> JSON {
        try bytes.withUnsafeBytes { try parse($0) }
    }

    public static func parse(_ text: String) throws -> JSON {
        var text = text
        return try text.withUTF8 { try parse(UnsafeRawBufferPointer($0)) }
    }

    /// Converts a jansson value, borrowing it (the caller keeps its reference).
    init(jansson value: UnsafeMutablePointer<json_t>) {
        switch value.pointee.type {
        case JSON_OBJECT:
            var object = JSONObject()
            var iterator = json_object_iter(value)
            while let it = iterator {
                let key = String(cString: json_object_iter_key(it))
                object[key] = JSON(jansson: json_object_iter_value(it))
                iterator = json_object_iter_next(value, it)
            }
            self = .object(object)
        case JSON_ARRAY:
            let count = json_array_size(value)
            var array: [JSON] = []
            array.reserveCapacity(count)
            for index in 0..<count { array.append(JSON(jansson: json_array_get(value, index))) }
            self = .array(array)
        case JSON_STRING:
            let length = json_string_length(value)
            let pointer = UnsafeRawPointer(json_string_value(value)!)
            self = .string(String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self))
        case JSON_INTEGER: self = .integer(Int64(json_integer_value(value)))
        case JSON_REAL: self = .real(json_real_value(value))
        case JSON_TRUE: self = .bool(true)
        case JSON_FALSE: self = .bool(false)
        default: self = .null
        }
    }
}
