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
        var scanner = RecordScanner(base: base, count: line.count)
        guard scanner.expect(head), scanner.skipString(), scanner.expect(dataKey),
            let record = scanner.chunk(), scanner.next() == UInt8(ascii: "}"), scanner.position == line.count
        else { return nil }
        return record
    }

    /// Whether `data` is exactly a text delta's chunk, spelled any way JSON allows: then it is
    /// JSON as `JSON.parse` reads it. ps-sse checks the hot event so, without a jansson tree;
    /// anything else goes to JSONSyntax.
    public static func isChunk(_ data: UnsafeRawBufferPointer) -> Bool {
        guard let base = data.baseAddress else { return false }
        var scanner = RecordScanner(base: base, count: data.count)
        return scanner.chunk() != nil && scanner.position == data.count
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

extension RecordScanner {
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
}
