/// Why a text is not JSON, with the position (1-based line and column, in bytes).
public struct JSONParseError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public let line: Int
    public let column: Int
    public var description: String { "\(message) at line \(line), column \(column)" }
}

extension JSON {
    /// Parses one JSON text (any value, not only objects). Invalid UTF-8 is an error. A number no
    /// Int64 or Double holds (beyond 64 bits, beyond Double's range) is kept as its literal text.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws -> JSON {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw JSONParseError(message: "empty input", line: 1, column: 1)
        }
        var parser = Parser(scanner: JSONScanner(bytes: base.assumingMemoryBound(to: UInt8.self), count: bytes.count))
        parser.scanner.skipWhitespace()
        if let value = parser.value(depth: 1) {
            parser.scanner.skipWhitespace()
            if parser.scanner.index == parser.scanner.count { return value }
        }
        throw parser.error()
    }

    public static func parse(bytes: [UInt8]) throws -> JSON {
        try bytes.withUnsafeBytes { try parse($0) }
    }

    public static func parse(_ text: String) throws -> JSON {
        var text = text
        return try text.withUTF8 { try parse(UnsafeRawBufferPointer($0)) }
    }

    /// Builds values from JSONScanner's tokens; nil where the scanner finds the text invalid.
    private struct Parser {
        var scanner: JSONScanner
        /// Where the text stopped being JSON: the furthest the scanner got.
        private var failure = 0

        init(scanner: JSONScanner) { self.scanner = scanner }

        mutating func value(depth: Int) -> JSON? {
            guard depth <= JSONSyntax.maximumDepth, let byte = scanner.current else { return fail() }
            switch byte {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string(isKey: false).map(JSON.string)
            case UInt8(ascii: "t"): return scanner.literal("true") ? .bool(true) : fail()
            case UInt8(ascii: "f"): return scanner.literal("false") ? .bool(false) : fail()
            case UInt8(ascii: "n"): return scanner.literal("null") ? .null : fail()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard let token = scanner.number() else { return fail() }
                return JSONNumber.value(
                    UnsafeBufferPointer(start: scanner.bytes + token.start, count: scanner.index - token.start),
                    isInteger: token.isInteger)
            default: return fail()
            }
        }

        private mutating func object(depth: Int) -> JSON? {
            scanner.index += 1
            scanner.skipWhitespace()
            var object = JSONObject()
            if scanner.consume(UInt8(ascii: "}")) { return .object(object) }
            while true {
                guard scanner.current == UInt8(ascii: "\""), let key = string(isKey: true) else { return fail() }
                scanner.skipWhitespace()
                guard scanner.consume(UInt8(ascii: ":")) else { return fail() }
                scanner.skipWhitespace()
                guard let item = value(depth: depth + 1) else { return nil }
                object[key] = item
                scanner.skipWhitespace()
                if scanner.consume(UInt8(ascii: "}")) { return .object(object) }
                guard scanner.consume(UInt8(ascii: ",")) else { return fail() }
                scanner.skipWhitespace()
            }
        }

        private mutating func array(depth: Int) -> JSON? {
            scanner.index += 1
            scanner.skipWhitespace()
            var items: [JSON] = []
            if scanner.consume(UInt8(ascii: "]")) { return .array(items) }
            while true {
                guard let item = value(depth: depth + 1) else { return nil }
                items.append(item)
                scanner.skipWhitespace()
                if scanner.consume(UInt8(ascii: "]")) { return .array(items) }
                guard scanner.consume(UInt8(ascii: ",")) else { return fail() }
                scanner.skipWhitespace()
            }
        }

        private mutating func string(isKey: Bool) -> String? {
            let start = scanner.index + 1
            guard let hasEscape = scanner.string(isKey: isKey) else { return fail() }
            let content = UnsafeBufferPointer(start: scanner.bytes + start, count: scanner.index - 1 - start)
            return hasEscape ? JSONStringEscapes.decode(content) : String(decoding: content, as: UTF8.self)
        }

        private mutating func fail<T>() -> T? {
            failure = max(failure, scanner.index)
            return nil
        }

        /// The error for the place the text went wrong, counted in lines and columns.
        func error() -> JSONParseError {
            let position = max(failure, scanner.index)
            var line = 1, lineStart = 0
            for offset in 0..<min(position, scanner.count) where scanner.bytes[offset] == 0x0A {
                line += 1
                lineStart = offset + 1
            }
            let message: String
            if position >= scanner.count {
                message = "unexpected end of input"
            } else {
                let byte = scanner.bytes[position]
                message = byte >= 0x21 && byte < 0x7F
                    ? "unexpected '\(Character(Unicode.Scalar(byte)))'"
                    : "unexpected byte 0x" + String(byte, radix: 16, uppercase: true)
            }
            return JSONParseError(message: message, line: line, column: position - lineStart + 1)
        }
    }
}
