/// A JSON syntax check that builds nothing and allocates nothing: one pass over the bytes.
///
/// Filters use it to pass JSON on unchanged (ps-sse copies an event's data into its record), so
/// it accepts exactly what `JSON.parse` (jansson, with JSON_DECODE_ANY and JSON_ALLOW_NUL)
/// accepts, or the next command could not read the record back: RFC 8259 JSON, valid UTF-8, no
/// lone surrogate escapes, no `\u0000` in object keys, integers within 64 bits, reals that do not
/// overflow, at most 2048 levels of nesting. One deliberate difference: a raw NUL byte outside a
/// string is refused (jansson takes it for the end of input in some places), since a NUL copied
/// into a record would cut that line short for its reader.
public enum JSONSyntax {
    /// jansson's JSON_PARSER_MAX_DEPTH: every value, scalars too, counts as a level.
    static let maximumDepth = 2048

    public static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        var scanner = Scanner(bytes: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        scanner.skipWhitespace()
        guard scanner.value(depth: 1) else { return false }
        scanner.skipWhitespace()
        return scanner.index == scanner.count
    }

    public static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { isValid($0) }
    }

    private struct Scanner {
        let bytes: UnsafePointer<UInt8>
        let count: Int
        var index = 0

        init(bytes: UnsafePointer<UInt8>, count: Int) {
            self.bytes = bytes
            self.count = count
        }

        private var current: UInt8? { index < count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while index < count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) -> Bool {
            guard depth <= JSONSyntax.maximumDepth, let byte = current else { return false }
            switch byte {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string(isKey: false)
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: return false
            }
        }

        private mutating func consume(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            index += 1
            return true
        }

        private mutating func object(depth: Int) -> Bool {
            index += 1
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return true }
            while true {
                guard current == UInt8(ascii: "\""), string(isKey: true) else { return false }
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
                guard value(depth: depth + 1) else { return false }
                skipWhitespace()
                if consume(UInt8(ascii: "}")) { return true }
                guard consume(UInt8(ascii: ",")) else { return false }
                skipWhitespace()
            }
        }

        private mutating func array(depth: Int) -> Bool {
            index += 1
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return true }
            while true {
                guard value(depth: depth + 1) else { return false }
                skipWhitespace()
                if consume(UInt8(ascii: "]")) { return true }
                guard consume(UInt8(ascii: ",")) else { return false }
                skipWhitespace()
            }
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            let length = word.utf8CodeUnitCount
            guard count - index >= length else { return false }
            let pointer = word.utf8Start
            for offset in 0..<length where bytes[index + offset] != pointer[offset] { return false }
            index += length
            return true
        }

        private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

        private mutating func skipDigits() -> Int {
            let start = index
            while index < count && Self.isDigit(bytes[index]) { index += 1 }
            return index - start
        }

        private mutating func number() -> Bool {
            let start = index
            let negative = consume(UInt8(ascii: "-"))
            let integerStart = index
            guard let first = current, Self.isDigit(first) else { return false }
            if first == UInt8(ascii: "0") { index += 1 } else { _ = skipDigits() }
            let integerEnd = index
            var isReal = false, hasExponent = false
            if consume(UInt8(ascii: ".")) {
                guard skipDigits() > 0 else { return false }
                isReal = true
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard skipDigits() > 0 else { return false }
                isReal = true
                hasExponent = true
            }
            if isReal {
                // Only an exponent or a very long integer part can overflow a Double.
                guard hasExponent || integerEnd - integerStart > 300 else { return true }
                let text = String(decoding: UnsafeBufferPointer(start: bytes + start, count: index - start), as: UTF8.self)
                return Double(text).map { $0.isFinite } ?? false
            }
            // jansson reads integers as 64-bit: beyond that is an error, not a real.
            let digits = integerEnd - integerStart
            if digits < 19 { return true }
            if digits > 19 { return false }
            var magnitude: UInt64 = 0
            for offset in integerStart..<integerEnd { magnitude = magnitude * 10 + UInt64(bytes[offset] - 0x30) }
            return magnitude <= (negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max))
        }

        private mutating func hexQuad() -> UInt32? {
            guard count - index >= 4 else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - 0x30
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - 0x61 + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - 0x41 + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        private mutating func string(isKey: Bool) -> Bool {
            index += 1
            while index < count {
                let byte = bytes[index]
                if byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return true
                case UInt8(ascii: "\\"):
                    index += 1
                    guard escape(isKey: isKey) else { return false }
                case 0x00..<0x20:
                    return false
                default:
                    guard utf8Sequence() else { return false }
                }
            }
            return false
        }

        private mutating func escape(isKey: Bool) -> Bool {
            guard let byte = current else { return false }
            index += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                return true
            case UInt8(ascii: "u"):
                guard let unit = hexQuad() else { return false }
                switch unit {
                case 0xD800...0xDBFF:
                    // A high surrogate must be followed by an escaped low one.
                    guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")), let low = hexQuad() else { return false }
                    return (0xDC00...0xDFFF).contains(low)
                case 0xDC00...0xDFFF:
                    return false
                case 0:
                    return !isKey  // jansson cannot store NUL in a key.
                default:
                    return true
                }
            default:
                return false
            }
        }

        /// One well-formed UTF-8 sequence of 2 to 4 bytes: no overlong forms, no surrogates,
        /// nothing above U+10FFFF.
        private mutating func utf8Sequence() -> Bool {
            let first = bytes[index]
            let length: Int
            var scalar: UInt32
            switch first {
            case 0xC2...0xDF: length = 2; scalar = UInt32(first & 0x1F)
            case 0xE0...0xEF: length = 3; scalar = UInt32(first & 0x0F)
            case 0xF0...0xF4: length = 4; scalar = UInt32(first & 0x07)
            default: return false
            }
            guard count - index >= length else { return false }
            for offset in 1..<length {
                let byte = bytes[index + offset]
                guard byte & 0xC0 == 0x80 else { return false }
                scalar = scalar << 6 | UInt32(byte & 0x3F)
            }
            let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
            guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return false }
            index += length
            return true
        }
    }
}
