/// The grammar of JSON (RFC 8259) over bytes, shared by the syntax check (JSONSyntax, which
/// builds nothing) and the parser (JSON.parse, which builds values from the tokens it finds):
/// both accept exactly the same texts. Valid UTF-8 only, no lone surrogate escapes, no `\u0000`
/// in object keys (a key cannot hold NUL where jansson, the reference, keeps keys), at most
/// `JSONSyntax.maximumDepth` levels of nesting; numbers of any size (the parser keeps the ones
/// no Int64 or Double holds as their literal text).
struct JSONScanner {
    let bytes: UnsafePointer<UInt8>
    let count: Int
    var index = 0

    init(bytes: UnsafePointer<UInt8>, count: Int) {
        self.bytes = bytes
        self.count = count
    }

    var current: UInt8? { index < count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while index < count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    /// Checks one value and skips it.
    mutating func value(depth: Int) -> Bool {
        guard depth <= JSONSyntax.maximumDepth, let byte = current else { return false }
        switch byte {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string(isKey: false) != nil
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number() != nil
        default: return false
        }
    }

    private mutating func object(depth: Int) -> Bool {
        index += 1
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return true }
        while true {
            guard current == UInt8(ascii: "\""), string(isKey: true) != nil else { return false }
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

    mutating func literal(_ word: StaticString) -> Bool {
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

    /// A number token: where it starts, and whether it has a fraction or an exponent.
    struct NumberToken {
        let start: Int
        let isInteger: Bool
    }

    /// Skips a number; nil when the bytes are not one.
    mutating func number() -> NumberToken? {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        guard let first = current, Self.isDigit(first) else { return nil }
        if first == UInt8(ascii: "0") { index += 1 } else { _ = skipDigits() }
        var isInteger = true
        if consume(UInt8(ascii: ".")) {
            guard skipDigits() > 0 else { return nil }
            isInteger = false
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { return nil }
            isInteger = false
        }
        return NumberToken(start: start, isInteger: isInteger)
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

    /// Skips a string whose opening quote is at `index`; returns whether it holds any escape, or
    /// nil when it is not a valid string.
    mutating func string(isKey: Bool) -> Bool? {
        index += 1
        var hasEscape = false
        while index < count {
            let byte = bytes[index]
            if byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return hasEscape
            case UInt8(ascii: "\\"):
                index += 1
                hasEscape = true
                guard escape(isKey: isKey) else { return nil }
            case 0x00..<0x20:
                return nil
            default:
                guard utf8Sequence() else { return nil }
            }
        }
        return nil
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
                return !isKey
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
        guard let length = UTF8Check.sequenceLength(UnsafeRawPointer(bytes), at: index, count: count) else { return false }
        index += length
        return true
    }
}
