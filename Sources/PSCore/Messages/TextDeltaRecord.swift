#if canImport(Glibc)
import Glibc
#endif

/// Nearly every line of a streamed answer is a text delta's event record, exactly as ps-sse writes
/// it: `{"event":"message","id":"…","data":{"type":"text-delta","id":"…","delta":"…"}}`.
/// Recognising that one shape straight from the bytes, without building a JSON tree, is most of
/// ps-parts' speed. The record's own bytes come from EventRecord; the chunk inside is the AI SDK's
/// (`type`, `id`, `delta`, in the order its server writes them, which ps-sse copies). Anything
/// else (other keys, other order, extra spaces, `\u` escapes, invalid UTF-8) returns nil and takes
/// the general path, so the result is always the same.
public struct TextDeltaRecord {
    /// The text part's stream id, as its bytes in the line (no escapes in it).
    public let id: UnsafeRawBufferPointer
    /// The delta, decoded.
    public let delta: String

    static let head = EventRecord.start(event: "message")
    static let chunk = EventRecord.dataKey + Array(#"{"type":"text-delta","id":"#.utf8)
    static let deltaKey = Array(#","delta":"#.utf8)
    static let tail = Array("}}".utf8)

    /// The record's id and delta, when `line` is such a record.
    public static func match(_ line: UnsafeRawBufferPointer) -> TextDeltaRecord? {
        guard let base = line.baseAddress else { return nil }
        var position = 0
        guard expect(head, base, line.count, &position), skipString(base, line.count, &position),
            expect(chunk, base, line.count, &position), let id = plainString(base, line.count, &position),
            expect(deltaKey, base, line.count, &position), let delta = string(base, line.count, &position),
            expect(tail, base, line.count, &position), position == line.count
        else { return nil }
        return TextDeltaRecord(id: id, delta: delta)
    }

    private static func expect(
        _ literal: [UInt8], _ base: UnsafeRawPointer, _ count: Int, _ position: inout Int
    ) -> Bool {
        guard count - position >= literal.count,
            literal.withUnsafeBytes({ memcmp(base + position, $0.baseAddress!, $0.count) }) == 0
        else { return false }
        position += literal.count
        return true
    }

    /// The end of the JSON string whose opening quote is at `position` (the index of its closing
    /// quote), and whether it has escapes; nil when no closing quote or a control byte comes.
    private static func stringEnd(_ base: UnsafeRawPointer, _ count: Int, _ position: Int) -> (end: Int, escaped: Bool)? {
        guard position < count, base.load(fromByteOffset: position, as: UInt8.self) == UInt8(ascii: "\"") else { return nil }
        var index = position + 1
        var escaped = false
        while index < count {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
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

    private static func skipString(_ base: UnsafeRawPointer, _ count: Int, _ position: inout Int) -> Bool {
        guard let (end, _) = stringEnd(base, count, position) else { return false }
        position = end + 1
        return true
    }

    /// A string without escapes, as its bytes, when they are valid UTF-8.
    private static func plainString(_ base: UnsafeRawPointer, _ count: Int, _ position: inout Int) -> UnsafeRawBufferPointer? {
        guard let (end, escaped) = stringEnd(base, count, position), !escaped else { return nil }
        let bytes = UnsafeRawBufferPointer(start: base + position + 1, count: end - position - 1)
        guard UTF8Check.isValid(bytes) else { return nil }
        position = end + 1
        return bytes
    }

    /// Decodes a JSON string: plain text and the simple escapes; `\u` escapes and invalid UTF-8
    /// are left to the full parser.
    private static func string(_ base: UnsafeRawPointer, _ count: Int, _ position: inout Int) -> String? {
        guard let (end, escaped) = stringEnd(base, count, position) else { return nil }
        let raw = UnsafeRawBufferPointer(start: base + position + 1, count: end - position - 1)
        guard UTF8Check.isValid(raw) else { return nil }
        position = end + 1
        if !escaped { return String(decoding: raw, as: UTF8.self) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count {
            let byte = raw[i]
            guard byte == UInt8(ascii: "\\") else { bytes.append(byte); i += 1; continue }
            switch raw[i + 1] {
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "\""): bytes.append(0x22)
            case UInt8(ascii: "\\"): bytes.append(0x5C)
            case UInt8(ascii: "/"): bytes.append(0x2F)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            default: return nil
            }
            i += 2
        }
        return String(decoding: bytes, as: UTF8.self)
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
