/// Nearly every line of a streamed answer is a text delta's event record, exactly as ps-sse writes
/// it: `{"event":"message","id":"…","data":{"type":"text-delta","id":"…","delta":"…"}}`.
/// Recognising that one shape straight from the bytes, without building a JSON tree, more than
/// halves the cost of the common case. Anything else (other keys, other order, extra spaces)
/// returns nil and takes the general path, so the result is always the same.
public enum TextDeltaRecord {
    private static let head = Array(#"{"event":"message","id":"#.utf8)
    private static let data = Array(#","data":{"type":"text-delta","id":"#.utf8)
    private static let delta = Array(#","delta":"#.utf8)
    private static let tail = Array("}}".utf8)

    /// The text part id and the delta, when `line` is such a record.
    public static func match(_ line: UnsafeRawBufferPointer) -> (id: String, delta: String)? {
        var position = 0
        guard expect(head, in: line, at: &position), skipString(line, &position),
            expect(data, in: line, at: &position), let id = string(line, &position),
            expect(delta, in: line, at: &position), let text = string(line, &position),
            expect(tail, in: line, at: &position), position == line.count
        else { return nil }
        return (id, text)
    }

    private static func expect(_ literal: [UInt8], in line: UnsafeRawBufferPointer, at position: inout Int) -> Bool {
        guard line.count - position >= literal.count else { return false }
        for (offset, byte) in literal.enumerated() where line[position + offset] != byte { return false }
        position += literal.count
        return true
    }

    /// Skips a JSON string whose opening quote is at `position`.
    private static func skipString(_ line: UnsafeRawBufferPointer, _ position: inout Int) -> Bool {
        guard position < line.count, line[position] == UInt8(ascii: "\"") else { return false }
        var index = position + 1
        while index < line.count {
            switch line[index] {
            case UInt8(ascii: "\""):
                position = index + 1
                return true
            case UInt8(ascii: "\\"): index += 2
            case 0x00..<0x20: return false
            default: index += 1
            }
        }
        return false
    }

    /// Decodes a JSON string whose opening quote is at `position`. Only plain text and the simple
    /// escapes are handled here; `\u` escapes and invalid UTF-8 fall back to the full parser.
    private static func string(_ line: UnsafeRawBufferPointer, _ position: inout Int) -> String? {
        guard position < line.count, line[position] == UInt8(ascii: "\"") else { return nil }
        let start = position + 1
        var index = start
        var hasEscape = false
        while index < line.count {
            let byte = line[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") { hasEscape = true; index += 2; continue }
            if byte < 0x20 { return nil }
            index += 1
        }
        guard index < line.count else { return nil }
        position = index + 1
        let raw = UnsafeRawBufferPointer(rebasing: line[start..<index])
        if !hasEscape { return String(validating: raw, as: UTF8.self) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count {
            let byte = raw[i]
            guard byte == UInt8(ascii: "\\") else { bytes.append(byte); i += 1; continue }
            guard i + 1 < raw.count else { return nil }
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
        return String(validating: bytes, as: UTF8.self)
    }
}

extension MessageStream {
    /// Handles a text delta recognised by TextDeltaRecord: the same as consuming its record.
    public func consumeTextDelta(id: String, delta: String, line: Int) throws {
        try applyTextDelta(id: id, delta: delta, line: line)
    }
}
