/// Standard base64 (RFC 4648, `+/`, padded), the one encoder and decoder of the tree: data
/// URLs carry attachments in it.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(encodedLength(bytes.count))
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out += [alphabet[Int(group >> 18 & 63)], alphabet[Int(group >> 12 & 63)],
                    alphabet[Int(group >> 6 & 63)], alphabet[Int(group & 63)]]
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            let group = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            out += [alphabet[Int(group >> 18 & 63)], alphabet[Int(group >> 12 & 63)]]
            out += rest == 2 ? [alphabet[Int(group >> 6 & 63)], UInt8(ascii: "=")] : [UInt8(ascii: "="), UInt8(ascii: "=")]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// How many characters `encode` makes of `count` bytes.
    public static func encodedLength(_ count: Int) -> Int { (count + 2) / 3 * 4 }

    /// The bytes, decoded as a browser's `atob` does (ASCII whitespace skipped, padding
    /// optional but only at the end); nil where `atob` would throw.
    public static func decode(_ text: Substring) -> [UInt8]? {
        var symbols: [UInt8] = []
        for byte in text.utf8 where ![0x09, 0x0A, 0x0C, 0x0D, 0x20].contains(byte) { symbols.append(byte) }
        if symbols.count % 4 == 0 {
            for _ in 0..<2 where symbols.last == UInt8(ascii: "=") { symbols.removeLast() }
        }
        if symbols.count % 4 == 1 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(symbols.count * 3 / 4)
        var bits: UInt32 = 0, count = 0
        for symbol in symbols {
            let value: UInt32
            switch symbol {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(symbol) - 65
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(symbol) - 97 + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(symbol) - 48 + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            default: return nil
            }
            bits = (bits << 6 | value) & 0xFFFFFF
            count += 6
            if count >= 8 {
                count -= 8
                out.append(UInt8(bits >> UInt32(count) & 0xFF))
            }
        }
        return out
    }

    /// base64url (RFC 4648 §5: `-` and `_` for `+` and `/`, padding optional), as in a JWT.
    public static func decodeURL(_ text: Substring) -> [UInt8]? {
        let mapped = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        var padded = mapped
        while padded.utf8.count % 4 != 0 { padded += "=" }
        return decode(Substring(padded))
    }
}
