/// The escapes of a JSON string's body (RFC 8259 section 7).
enum JSONEscapes {
    /// Writes the UTF-8 bytes of a string body whose quotes are removed to `out`, which has room
    /// for `raw.count` bytes (no escape is shorter than what it stands for); returns how many it
    /// wrote, or nil on a bad escape or a lone surrogate.
    static func decode(_ raw: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt8>) -> Int? {
        var written = 0
        var i = 0
        while i < raw.count {
            let byte = raw[i]
            guard byte == UInt8(ascii: "\\") else { out[written] = byte; written += 1; i += 1; continue }
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
        return written
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
