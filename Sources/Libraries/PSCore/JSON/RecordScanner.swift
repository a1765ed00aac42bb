#if canImport(Glibc)
import Glibc
#endif

/// The one byte-level matcher: a cursor over a delta record's bytes (the hot record of a streamed
/// answer), reading its strings straight from them, without a jansson tree, decoded once into the
/// String that keeps them. ps-parts (TextDeltaRecord) and ps-render (PartDeltaRecord) use it;
/// every other record is read by `JSON.parse` (jansson).
///
/// It takes only what it reads exactly as `JSON.parse` does, and gives up (nil or false) on
/// anything else: a key with an escape, a lone surrogate, invalid UTF-8, bad syntax. The caller
/// then takes the general path, which reads the record or says what is wrong with it.
struct RecordScanner {
    let base: UnsafeRawPointer
    let count: Int
    var position = 0

    init(base: UnsafeRawPointer, count: Int) {
        self.base = base
        self.count = count
    }

    subscript(_ index: Int) -> UInt8 { base.load(fromByteOffset: index, as: UInt8.self) }

    /// The next byte, consumed; nil at the end.
    mutating func next() -> UInt8? {
        guard position < count else { return nil }
        defer { position += 1 }
        return self[position]
    }

    mutating func skipWhitespace() {
        while position < count {
            switch self[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    mutating func expect(_ literal: [UInt8]) -> Bool {
        guard count - position >= literal.count,
            literal.withUnsafeBytes({ memcmp(base + position, $0.baseAddress!, $0.count) }) == 0
        else { return false }
        position += literal.count
        return true
    }

    static func equal(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        bytes.count == literal.utf8CodeUnitCount && memcmp(bytes.baseAddress!, literal.utf8Start, bytes.count) == 0
    }

    /// The index of the closing quote of the string whose opening quote is at `position`, and
    /// whether it has escapes; nil when no closing quote or a control byte comes.
    func stringEnd() -> (end: Int, escaped: Bool)? {
        guard position < count, self[position] == UInt8(ascii: "\"") else { return nil }
        var index = position + 1
        var escaped = false
        while true {
            while index < count && self[index] != UInt8(ascii: "\"") && self[index] != UInt8(ascii: "\\") && self[index] >= 0x20 {
                index += 1
            }
            guard index < count else { return nil }
            switch self[index] {
            case UInt8(ascii: "\""): return (index, escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                index += 2
            default: return nil  // a control byte
            }
        }
    }

    mutating func skipString() -> Bool {
        guard let (end, _) = stringEnd() else { return false }
        position = end + 1
        return true
    }

    /// A string without escapes, as its bytes, when they are valid UTF-8 (not checked when
    /// `validated` is false: for a key or type, which only ever equals an ASCII literal).
    mutating func plainString(validated: Bool = true) -> UnsafeRawBufferPointer? {
        guard let (end, escaped) = stringEnd(), !escaped else { return nil }
        let bytes = UnsafeRawBufferPointer(start: base + position + 1, count: end - position - 1)
        guard !validated || UTF8Check.isValid(bytes) else { return nil }
        position = end + 1
        return bytes
    }

    /// A JSON string's body as it is in the line, quotes left out, and whether it has escapes
    /// (its UTF-8 not checked).
    mutating func stringBody() -> (raw: UnsafeRawBufferPointer, escaped: Bool)? {
        guard let (end, escaped) = stringEnd() else { return nil }
        let raw = UnsafeRawBufferPointer(start: base + position + 1, count: end - position - 1)
        position = end + 1
        return (raw, escaped)
    }

    /// Gives `body` the string body `raw` decoded (`raw` itself without escapes, else a buffer
    /// that lives for the call) and returns true; false on a bad escape or a lone surrogate.
    static func withDecoded(
        _ raw: UnsafeRawBufferPointer, escaped: Bool, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows -> Bool {
        guard escaped else {
            try body(raw)
            return true
        }
        // Decoding only shortens: with 8 bytes of room to spare, decode goes through to the end.
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count + 8) { buffer -> Bool in
            guard let (next, written) = JSONEscapes.decode(raw, from: 0, into: buffer.baseAddress!, capacity: buffer.count),
                next == raw.count
            else { return false }
            try body(UnsafeRawBufferPointer(start: buffer.baseAddress!, count: written))
            return true
        }
    }

    /// A JSON string, decoded exactly as jansson decodes it, into the String that keeps it (nil
    /// for a lone surrogate or invalid UTF-8, which the general path reports).
    mutating func string() -> String? {
        guard let (end, escaped) = stringEnd() else { return nil }
        let raw = UnsafeRawBufferPointer(start: base + position + 1, count: end - position - 1)
        // Escapes are ASCII, so the raw bytes are valid UTF-8 exactly when the decoded ones are.
        guard UTF8Check.isValid(raw) else { return nil }
        let text: String
        if escaped {
            guard let decoded = raw.count <= Self.decodedAtOnce ? Self.decoded(raw) : Self.decodedInPieces(raw) else { return nil }
            text = decoded
        } else {
            text = String(decoding: raw, as: UTF8.self)
        }
        position = end + 1
        return text
    }

    /// Strings up to this long are decoded at once (`decoded`), longer ones in pieces, straight
    /// into their String (no decoded copy beside it).
    static let decodedAtOnce = 64 << 10

    /// The string body `raw` decoded at once, into a buffer of its own, and made a String: one
    /// String made, where one was made for each piece and appended. A short one stays a small
    /// String (made with String(unsafeUninitializedCapacity:), each delta of a long answer was an
    /// allocation of its own, and the render's peak memory higher). Nil on a bad escape or a lone
    /// surrogate.
    private static func decoded(_ raw: UnsafeRawBufferPointer) -> String? {
        var text: String?
        _ = withDecoded(raw, escaped: true) { text = String(decoding: $0, as: UTF8.self) }
        return text
    }

    /// The string body `raw` decoded in pieces, straight into the String's storage (no decoded
    /// copy beside it); nil on a bad escape or a lone surrogate.
    private static func decodedInPieces(_ raw: UnsafeRawBufferPointer) -> String? {
        var decoded = ""
        decoded.reserveCapacity(raw.count)
        guard JSONEscapes.forEachPiece(raw, {
            decoded += String(decoding: $0, as: UTF8.self)
            return true
        }) == true else { return nil }
        return decoded
    }
}
