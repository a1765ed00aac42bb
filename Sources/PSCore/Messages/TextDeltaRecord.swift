#if canImport(Glibc)
import Glibc
#endif

/// Nearly every line of a streamed answer is a text delta's event record, as ps-sse writes it:
/// `{"event":"message","id":"…","data":{"type":"text-delta","id":"…","delta":"…"}}`.
/// Recognising that one shape straight from the bytes, without building a JSON tree, is most of
/// ps-parts' speed. The record's own bytes come from EventRecord; the chunk inside is the server's,
/// copied unchanged by ps-sse, so it is read as JSON: any whitespace, its three keys in any order,
/// every escape of its strings. A chunk with another key, a key twice, a key or id with escapes,
/// a lone surrogate or invalid UTF-8 returns nil and takes the general path, so the result is
/// always the same.
public struct TextDeltaRecord {
    /// The text part's stream id, as its bytes in the line (no escapes in it).
    public let id: UnsafeRawBufferPointer
    /// The delta, decoded.
    public let delta: String

    static let head = EventRecord.start(event: "message")
    static let dataKey = EventRecord.dataKey

    /// The record's id and delta, when `line` is such a record.
    public static func match(_ line: UnsafeRawBufferPointer) -> TextDeltaRecord? {
        guard let base = line.baseAddress else { return nil }
        var scanner = Scanner(base: base, count: line.count)
        guard scanner.expect(head), scanner.skipString(), scanner.expect(dataKey),
            let record = scanner.chunk(), scanner.next() == UInt8(ascii: "}"), scanner.position == line.count
        else { return nil }
        return record
    }
}

extension TextDeltaRecord {
    /// A cursor over a record's bytes; every method returns nil or false on what it does not take.
    struct Scanner {
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

        /// The chunk object `{"type":"text-delta","id":…,"delta":…}`, spelled any way JSON allows.
        mutating func chunk() -> TextDeltaRecord? {
            skipWhitespace()
            guard next() == UInt8(ascii: "{") else { return nil }
            var isTextDelta = false
            var id: UnsafeRawBufferPointer?
            var delta: String?
            while true {
                skipWhitespace()
                guard let key = plainString(validated: false) else { return nil }
                skipWhitespace()
                guard next() == UInt8(ascii: ":") else { return nil }
                skipWhitespace()
                switch key.count {
                case 4 where Self.equal(key, "type"):
                    guard !isTextDelta, let type = plainString(validated: false), Self.equal(type, "text-delta") else { return nil }
                    isTextDelta = true
                case 2 where Self.equal(key, "id"):
                    guard id == nil, let value = plainString() else { return nil }
                    id = value
                case 5 where Self.equal(key, "delta"):
                    guard delta == nil, let value = string() else { return nil }
                    delta = value
                default: return nil
                }
                skipWhitespace()
                switch next() {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "}"):
                    guard isTextDelta, let id, let delta else { return nil }
                    skipWhitespace()
                    return TextDeltaRecord(id: id, delta: delta)
                default: return nil
                }
            }
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
            while index < count {
                let byte = self[index]
                if byte == UInt8(ascii: "\"") { return (index, escaped) }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    index += 2
                    continue
                }
                if byte < 0x20 { return nil }
                index += 1
            }
            return nil
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

        /// A JSON string, decoded exactly as jansson decodes it (nil for a lone surrogate or
        /// invalid UTF-8, which the general path reports).
        mutating func string() -> String? {
            guard let (end, escaped) = stringEnd() else { return nil }
            let raw = UnsafeRawBufferPointer(start: base + position + 1, count: end - position - 1)
            guard UTF8Check.isValid(raw) else { return nil }
            position = end + 1
            if !escaped { return String(decoding: raw, as: UTF8.self) }
            guard let bytes = JSONEscapes.decode(raw) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}

extension MessageStream {
    /// Handles a text delta recognised by TextDeltaRecord: the same as consuming its record.
    public func consumeTextDelta(_ record: TextDeltaRecord, line: Int) throws {
        if let target = lastDeltaTargetIndex(for: record.id) {
            return try appendTextDelta(record.delta, toPartAt: target, line: line)
        }
        let id = String(decoding: record.id, as: UTF8.self)
        try applyTextDelta(id: id, delta: record.delta, line: line)
        rememberDeltaTarget(id: record.id, name: id)
    }
}
