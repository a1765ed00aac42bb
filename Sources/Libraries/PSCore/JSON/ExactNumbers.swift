/// Valid JSON that jansson refuses only for its numbers: an integer beyond 64 bits or a number
/// beyond Double's range (`123456789012345678901234567890`, `1e400`). Such numbers are written
/// as marked strings, the text is parsed by jansson, and the marked strings become
/// `JSON.number(literal)` again, so the numbers pass through byte for byte.
///
/// Only a number token is rewritten, and into a string token: the rewritten text is JSON exactly
/// when the text is (a marked string as an object key holds a NUL, which jansson refuses there).
/// When it is not, `failure` (jansson's account of the text as it came) is thrown.
enum ExactNumbers {
    static func parse(
        _ bytes: UnsafeRawBufferPointer, failure: Jansson.Failure, rejectingDuplicates: Bool = true
    ) throws -> JSON {
        // A mark no string of this text can hold: NUL, then a tag not in the text.
        var tag = "psnum"
        while contains(bytes, Array(tag.utf8)) { tag += "~" }
        let prefix = "\u{0}" + tag + ":"
        var rewritten: [UInt8] = []
        rewritten.reserveCapacity(bytes.count + 64)
        var literals: [String] = []
        var index = 0
        var copied = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 2; continue }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") { inString = true; index += 1; continue }
            guard byte == UInt8(ascii: "-") || (byte >= 0x30 && byte <= 0x39) else { index += 1; continue }
            let start = index
            var isInteger = true
            while index < bytes.count, let next = Optional(bytes[index]),
                (next >= 0x30 && next <= 0x39) || next == UInt8(ascii: "-") || next == UInt8(ascii: "+")
                    || next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E")
            {
                if next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { isInteger = false }
                index += 1
            }
            let literal = UnsafeBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self)[start..<index])
            guard isNumber(literal), case .number(let text) = JSONNumber.value(literal, isInteger: isInteger) else { continue }
            rewritten.append(contentsOf: bytes[copied..<start])
            rewritten.append(contentsOf: Array("\"\\u0000\(tag):\(literals.count)\"".utf8))
            literals.append(text)
            copied = index
        }
        rewritten.append(contentsOf: bytes[copied...])
        let parsed = rewritten.withUnsafeBytes { Jansson.parse($0, rejectingDuplicates: rejectingDuplicates) }
        switch parsed {
        case .success(let value): return restore(value, prefix: prefix, literals: literals)
        case .failure: throw failure.parseError
        }
    }

    /// Whether `literal` is a JSON number (RFC 8259 section 6): `-`? int frac? exp?
    private static func isNumber(_ literal: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < literal.count, literal[index] >= 0x30 && literal[index] <= 0x39 { index += 1 }
            return index - start
        }
        func skip(_ byte: UInt8) -> Bool {
            guard index < literal.count, literal[index] == byte else { return false }
            index += 1
            return true
        }
        _ = skip(UInt8(ascii: "-"))
        let leadingZero = index < literal.count && literal[index] == UInt8(ascii: "0")
        let whole = digits()
        guard whole > 0, !leadingZero || whole == 1 else { return false }
        if skip(UInt8(ascii: ".")) { guard digits() > 0 else { return false } }
        if skip(UInt8(ascii: "e")) || skip(UInt8(ascii: "E")) {
            _ = skip(UInt8(ascii: "+")) || skip(UInt8(ascii: "-"))
            guard digits() > 0 else { return false }
        }
        return index == literal.count
    }

    private static func restore(_ value: JSON, prefix: String, literals: [String]) -> JSON {
        switch value {
        case .string(let text) where text.hasPrefix(prefix):
            guard let index = Int(text.dropFirst(prefix.count)), literals.indices.contains(index) else { return value }
            return .number(literals[index])
        case .array(let items):
            return .array(items.map { restore($0, prefix: prefix, literals: literals) })
        case .object(let object):
            var out = JSONObject()
            for (key, item) in object { out[key] = restore(item, prefix: prefix, literals: literals) }
            return .object(out)
        default:
            return value
        }
    }

    private static func contains(_ bytes: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if (1..<needle.count).allSatisfy({ bytes[start + $0] == needle[$0] }) { return true }
        }
        return false
    }
}
