#if canImport(Glibc)
import Glibc
#endif

/// The escapes of a JSON string's body (RFC 8259 section 7).
enum JSONEscapes {
    /// Decodes a string body whose quotes are removed, from offset `start`, into `out`, until the
    /// body ends or fewer than 8 of its `capacity` bytes are left; never inside an escape or a
    /// UTF-8 sequence, so each piece is valid UTF-8 when the body is. Returns the offset reached
    /// and the bytes written, or nil on a bad escape or a lone surrogate.
    static func decode(
        _ raw: UnsafeRawBufferPointer, from start: Int, into out: UnsafeMutablePointer<UInt8>, capacity: Int
    ) -> (next: Int, written: Int)? {
        var written = 0
        var i = start
        let base = raw.baseAddress!
        // A step writes at most 4 bytes; the continuation bytes after a stop are at most 3.
        while i < raw.count {
            guard raw[i] == UInt8(ascii: "\\") else {
                // The bytes up to the next escape, copied at once while 8 bytes of room are left.
                let room = max(0, capacity - 8 - written)
                let limit = min(raw.count - i, room)
                let run = memchr(base + i, 0x5C, limit).map { base.distance(to: UnsafeRawPointer($0)) - i } ?? limit
                if run > 0 {
                    memcpy(out + written, base + i, run)
                    written += run
                    i += run
                } else if raw[i] & 0xC0 == 0x80 {
                    // The rest of a UTF-8 sequence, in the room left for it.
                    out[written] = raw[i]
                    written += 1
                    i += 1
                } else {
                    break
                }
                continue
            }
            guard written + 8 <= capacity else { break }
            guard i + 1 < raw.count else { return nil }
            let plain: UInt8
            switch raw[i + 1] {
            case UInt8(ascii: "n"): plain = 0x0A
            case UInt8(ascii: "t"): plain = 0x09
            case UInt8(ascii: "r"): plain = 0x0D
            case UInt8(ascii: "\""): plain = 0x22
            case UInt8(ascii: "\\"): plain = 0x5C
            case UInt8(ascii: "/"): plain = 0x2F
            case UInt8(ascii: "b"): plain = 0x08
            case UInt8(ascii: "f"): plain = 0x0C
            case UInt8(ascii: "u"):
                guard var scalar = hex4(raw, i + 2) else { return nil }
                i += 6
                if (0xDC00...0xDFFF).contains(scalar) { return nil }
                if (0xD800...0xDBFF).contains(scalar) {
                    guard i + 1 < raw.count, raw[i] == UInt8(ascii: "\\"), raw[i + 1] == UInt8(ascii: "u"),
                        let low = hex4(raw, i + 2), (0xDC00...0xDFFF).contains(low)
                    else { return nil }
                    scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
                    i += 6
                }
                written += appendUTF8(scalar, to: out + written)
                continue
            default: return nil
            }
            out[written] = plain
            written += 1
            i += 2
        }
        return (i, written)
    }

    /// The decoded body, piece by piece through a small buffer: `body` is given each piece (valid
    /// UTF-8 when the raw bytes are) and returns false to stop. Nil on a bad escape or a lone
    /// surrogate, false when `body` stopped, true when every piece was given.
    static func forEachPiece(_ raw: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: min(raw.count + 8, 64 << 10)) { buffer -> Bool? in
            var offset = 0
            while offset < raw.count {
                guard let (next, written) = decode(raw, from: offset, into: buffer.baseAddress!, capacity: buffer.count) else {
                    return nil
                }
                if !body(UnsafeBufferPointer(rebasing: buffer[..<written])) { return false }
                offset = next
            }
            return true
        }
    }

    private static func hex4(_ raw: UnsafeRawBufferPointer, _ start: Int) -> UInt32? {
        guard start + 4 <= raw.count else { return nil }
        var value: UInt32 = 0
        for index in start..<start + 4 {
            let byte = raw[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Writes the scalar's UTF-8 bytes; returns how many.
    private static func appendUTF8(_ scalar: UInt32, to out: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case ..<0x80:
            out[0] = UInt8(scalar)
            return 1
        case ..<0x800:
            out[0] = UInt8(0xC0 | scalar >> 6)
            out[1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case ..<0x10000:
            out[0] = UInt8(0xE0 | scalar >> 12)
            out[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            out[0] = UInt8(0xF0 | scalar >> 18)
            out[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            out[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }
}
