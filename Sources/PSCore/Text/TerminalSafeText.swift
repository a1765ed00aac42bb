/// The one sanitiser every string from a message or a server goes through before it is written to
/// a terminal (stdout or stderr), so no content can move the cursor, clear the screen, write the
/// clipboard (OSC 52), ring the bell or reorder text with bidi controls.
///
/// Each Unicode scalar is mapped on its own, so sanitising text in pieces (stream deltas) gives
/// the same result as sanitising it whole.
///   - C0 controls except newline and tab: their control picture (ESC shows as ␛, BEL as ␇).
///   - DEL: ␡.
///   - C1 controls (U+0080-U+009F, e.g. CSI U+009B) and bidi overrides and isolates
///     (U+202A-U+202E, U+2066-U+2069): written visibly as `<U+009B>`.
public enum TerminalSafeText {
    /// Whether `scalar` must not reach a terminal as it is (newline and tab may).
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: return false
        case 0..<0x20, 0x7F, 0x80..<0xA0, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Whether `text` has no unsafe scalar and, unless `allowingLineBreaks`, no newline or tab:
    /// from its UTF-8 bytes, without decoding (C1 controls are C2 80-9F, the bidi controls E2 80 AA-AE
    /// and E2 81 A6-A9).
    public static func isSafe(_ text: String, allowingLineBreaks: Bool = true) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return true }
            let count = bytes.count
            var index = 0
            while index < count {
                if index + 8 <= count {
                    // Eight bytes at once where none of them is a control byte, DEL, or the first
                    // byte of a C1 or bidi control (most text).
                    let word = ByteWord.load(base + index)
                    guard Self.mayHoldUnsafeByte(word) else {
                        index += 8
                        continue
                    }
                    // Else straight to the first byte that needs a look of its own: a newline or
                    // tab, where they may be, is passed over with the rest of the word.
                    var flagged = ByteWord.below(word, 0x20) | ByteWord.matching(word, 0x7F)
                        | ByteWord.matching(word, 0xC2) | ByteWord.matching(word, 0xE2)
                    if allowingLineBreaks { flagged &= ~(ByteWord.matching(word, 0x0A) | ByteWord.matching(word, 0x09)) }
                    guard flagged != 0 else {
                        index += 8
                        continue
                    }
                    index += flagged.trailingZeroBitCount / 8
                }
                let byte = bytes[index]
                if byte < 0x20 {
                    guard allowingLineBreaks && (byte == 0x0A || byte == 0x09) else { return false }
                } else if byte == 0x7F {
                    return false
                } else if byte == 0xC2 {
                    if index + 1 < count && bytes[index + 1] < 0xA0 { return false }
                } else if byte == 0xE2 && index + 2 < count {
                    let second = bytes[index + 1], third = bytes[index + 2]
                    if second == 0x80 && (0xAA...0xAE).contains(third) || second == 0x81 && (0xA6...0xA9).contains(third) {
                        return false
                    }
                }
                index += 1
            }
            return true
        }
    }

    /// Whether one of the word's eight bytes is under 0x20, is 0x7F, or is 0xC2 or 0xE2 (the
    /// first byte of a C1 control or a bidi control): a word without any has none of the bytes
    /// `isSafe` looks at. Other bytes of other characters (é, 日) pass at this speed too.
    @inline(__always)
    static func mayHoldUnsafeByte(_ word: UInt64) -> Bool {
        ByteWord.hasByteBelow(word, 0x20) || ByteWord.has(word, 0x7F) || ByteWord.has(word, 0xC2) || ByteWord.has(word, 0xE2)
    }

    /// `text` with every unsafe scalar replaced by a visible stand-in.
    public static func sanitize(_ text: String) -> String {
        // Most text has nothing to replace: keep it as it is, without a copy.
        guard !isSafe(text) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) { scalars.append(contentsOf: visible(scalar).unicodeScalars) } else { scalars.append(scalar) }
        }
        return String(scalars)
    }

    /// The visible stand-in for an unsafe scalar.
    static func visible(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0..<0x20: return String(Unicode.Scalar(0x2400 + scalar.value)!)
        case 0x7F: return "\u{2421}"
        default:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
        }
    }

    /// A target for an OSC 8 hyperlink, or nil when `url` cannot be one: it has a control
    /// character or bidi control (which could end the sequence early or hide where it goes), is
    /// empty, or is longer than terminals accept. Spaces and other non-ASCII are percent-encoded.
    public static func linkTarget(_ url: String) -> String? {
        let bytes = Array(url.utf8)
        guard !bytes.isEmpty, bytes.count <= 2048, !url.unicodeScalars.contains(where: { isUnsafe($0) || $0 == "\n" || $0 == "\t" })
        else { return nil }
        var out = ""
        for byte in bytes {
            if byte > 0x20 && byte < 0x7F {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }
}

extension JSON {
    /// This value with every string in it, keys included, passed through `TerminalSafeText`.
    public var terminalSafe: JSON { terminalSafe(sparing: []) }

    /// The same, where a long string with the bytes of one of `safe` (texts made safe already: the
    /// text of a message that streamed, repeated whole at its end) is compared with it at
    /// once, not checked again.
    public func terminalSafe(sparing safe: [String]) -> JSON {
        switch self {
        case .string(let text):
            if !safe.isEmpty && text.utf8.count >= JSON.reusableLength && safe.contains(where: text.hasSameBytes) {
                return self
            }
            return .string(TerminalSafeText.sanitize(text))
        case .array(let items): return .array(items.map { $0.terminalSafe(sparing: safe) })
        case .object(let object):
            var result = JSONObject()
            for (key, value) in object { result[TerminalSafeText.sanitize(key)] = value.terminalSafe(sparing: safe) }
            return .object(result)
        default: return self
        }
    }
}
