import CJansson
#if canImport(Glibc)
import Glibc
#endif

/// Why a text is not JSON, with jansson's position (1-based line and column).
public struct JSONParseError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public let line: Int
    public let column: Int
    public var description: String { "\(message) at line \(line), column \(column)" }
}

extension JSON {
    /// Parses one JSON text (any value, not only objects) with jansson. Invalid UTF-8 is an error,
    /// and so is an object with a key twice (`{"type":"text-delta",…,"type":"finish"}`): which
    /// one counts is up to each reader, so no reading is safe.
    /// A number jansson cannot hold (an integer beyond 64 bits, a number beyond Double's range) is
    /// still valid JSON: it is kept as its literal text (`JSON.number`) — see `ExactNumbers`.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws -> JSON {
        try rejectNUL(bytes)
        switch Jansson.parse(bytes) {
        case .success(let value): return value
        case .failure(let error) where error.numericOverflow:
            return try ExactNumbers.parse(bytes, failure: error)
        case .failure(let error): throw error.parseError
        }
    }

    /// Whether the text is JSON, checked by jansson without building any value. Unlike `parse`, it
    /// takes an object with a key twice: that is valid syntax, refused only where it is read.
    static func accepts(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard (try? rejectNUL(bytes)) != nil else { return false }
        switch Jansson.load(bytes, rejectingDuplicates: false) {
        case .success(let root):
            json_decref(root)
            return true
        case .failure(let error) where error.numericOverflow:
            return (try? ExactNumbers.parse(bytes, failure: error, rejectingDuplicates: false)) != nil
        case .failure:
            return false
        }
    }

    /// A raw NUL is never JSON, but jansson may take one after a value for the end of the text.
    private static func rejectNUL(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { throw JSONParseError(message: "empty input", line: 1, column: 1) }
        if let nul = memchr(bytes.baseAddress!, 0, bytes.count) {
            let offset = bytes.baseAddress!.distance(to: UnsafeRawPointer(nul))
            let line = 1 + bytes[..<offset].filter { $0 == 0x0A }.count
            let column = offset - (bytes[..<offset].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
            throw JSONParseError(message: "a NUL byte, which JSON has only as \\u0000 in a string", line: line, column: column)
        }
    }

    public static func parse(bytes: [UInt8]) throws -> JSON {
        try bytes.withUnsafeBytes { try parse($0) }
    }

    public static func parse(_ text: String) throws -> JSON {
        var text = text
        return try text.withUTF8 { try parse(UnsafeRawBufferPointer($0)) }
    }
}

/// jansson's parser and the conversion of its values.
enum Jansson {
    struct Failure: Error {
        let parseError: JSONParseError
        /// jansson refused a number it cannot hold, not the text's syntax.
        let numericOverflow: Bool
    }

    static func parse(_ bytes: UnsafeRawBufferPointer, rejectingDuplicates: Bool = true) -> Result<JSON, Failure> {
        load(bytes, rejectingDuplicates: rejectingDuplicates).map { root in
            defer { json_decref(root) }
            return JSON(jansson: root)
        }
    }

    /// jansson's tree of the text, which the caller releases (json_decref).
    static func load(
        _ bytes: UnsafeRawBufferPointer, rejectingDuplicates: Bool = true
    ) -> Result<UnsafeMutablePointer<json_t>, Failure> {
        var error = json_error_t()
        let flags = JSON_DECODE_ANY | JSON_ALLOW_NUL | (rejectingDuplicates ? JSON_REJECT_DUPLICATES : 0)
        guard let base = bytes.baseAddress,
            let root = json_loadb(base.assumingMemoryBound(to: CChar.self), bytes.count, Int(flags), &error)
        else {
            let message = withUnsafeBytes(of: &error.text) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            return .failure(Failure(
                parseError: JSONParseError(message: message, line: Int(error.line), column: Int(error.column)),
                numericOverflow: json_error_code(&error) == json_error_numeric_overflow))
        }
        return .success(root)
    }
}

extension JSON {
    /// Converts a jansson value, borrowing it (the caller keeps its reference).
    init(jansson value: UnsafeMutablePointer<json_t>) {
        switch value.pointee.type {
        case JSON_OBJECT:
            var object = JSONObject()
            object.reserveCapacity(json_object_size(value))
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
