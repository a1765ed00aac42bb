// Serialisation is done here rather than by jansson's json_dumps: jansson prints reals with
// "%.17g" (0.1 becomes 0.10000000000000001), while JavaScript, whose output we must match,
// prints the shortest form that reads back to the same number.

extension JSON {
    /// Compact JSON text, as JavaScript's `JSON.stringify` writes it.
    public func serialized() -> String {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends compact JSON text to `out`.
    public func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .integer(let i): out.append(contentsOf: String(i).utf8)
        case .real(let d): JSON.writeReal(d, to: &out)
        case .number(let literal): out.append(contentsOf: literal.utf8)
        case .string(let s): JSON.writeString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in object {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                JSON.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeReal(_ d: Double, to out: inout [UInt8]) {
        guard d.isFinite else { out.append(contentsOf: "null".utf8); return }
        if d.rounded() == d && abs(d) < 1e21 && abs(d) < 9.0e15 {
            out.append(contentsOf: String(Int64(d)).utf8)
        } else {
            out.append(contentsOf: d.description.utf8)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Writes a JSON string literal; escapes what JSON requires and nothing more.
    public static func writeString(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { writeString(utf8: UnsafeRawBufferPointer($0), to: &out) }
    }

    /// Writes UTF-8 text as a JSON string literal. Runs of bytes that need no escape are copied
    /// whole: text is mostly such runs.
    public static func writeString(utf8 bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        writeStringBody(utf8: bytes, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// `writeString` without the quotes: the escaped bytes only. Any piece of UTF-8 text may be
    /// written on its own (only ASCII bytes are escaped).
    static func writeStringBody(utf8 bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        var runStart = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if runStart < index { out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<index])) }
            runStart = index + 1
            out.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
            case 0x0A: out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "t"))
            case 0x08: out.append(UInt8(ascii: "b"))
            case 0x0C: out.append(UInt8(ascii: "f"))
            default:
                out.append(contentsOf: "u00".utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            }
        }
        if runStart < bytes.count { out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart...])) }
    }
}

extension JSON {
    /// JSON text with DEL, the C1 controls (U+0080–U+009F) and the bidi controls (U+202A–U+202E,
    /// U+2066–U+2069) written as `\u` escapes: JSON leaves them raw, and a terminal acts on
    /// them (a C1 CSI starts a control sequence; U+202E turns the line around). The text
    /// means the same JSON. In JSON text these bytes only occur inside strings, never after a
    /// backslash, so each can be replaced where it stands. Nil when there is none.
    public static func escapingTerminalControls(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        guard text.contains(where: { $0 == 0xC2 || $0 == 0xE2 || $0 == 0x7F }) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 32)
        var index = 0
        while index < text.count {
            let byte = text[index]
            let next = index + 1 < text.count ? text[index + 1] : 0
            let third = index + 2 < text.count ? text[index + 2] : 0
            var scalar: Int?
            var length = 1
            if byte == 0x7F {
                scalar = 0x7F
            } else if byte == 0xC2, (0x80...0x9F).contains(next) {
                (scalar, length) = (Int(next), 2)
            } else if byte == 0xE2, next == 0x80, (0xAA...0xAE).contains(third) {
                (scalar, length) = (0x2000 + Int(third & 0x3F), 3)
            } else if byte == 0xE2, next == 0x81, (0xA6...0xA9).contains(third) {
                (scalar, length) = (0x2040 + Int(third & 0x3F), 3)
            }
            if let scalar {
                out.append(contentsOf: "\\u".utf8)
                for shift in stride(from: 12, through: 0, by: -4) { out.append(hexDigits[(scalar >> shift) & 0xF]) }
            } else {
                out.append(byte)
            }
            index += length
        }
        return out
    }
}

extension JSON: CustomStringConvertible {
    public var description: String { serialized() }
}
