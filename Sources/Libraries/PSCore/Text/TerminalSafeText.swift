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

    /// Whether `text` has no unsafe scalar and, unless `allowingLineBreaks`, no newline or tab.
    public static func isSafe(_ text: String, allowingLineBreaks: Bool = true) -> Bool {
        !text.unicodeScalars.contains { isUnsafe($0) || (!allowingLineBreaks && ($0 == "\n" || $0 == "\t")) }
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

    /// User input (an id, a name) for a line of a message: as it is when it is safe on one
    /// line, else as a JSON string (`"a\nb"`, `"\u001b[2J"`), so that it can neither break the
    /// line nor act on a terminal, and the reader sees what was given. (GNU ls quotes the same
    /// way: only the names that need it.)
    public static func quoted(_ text: String) -> String {
        guard !isSafe(text, allowingLineBreaks: false) else { return text }
        return sanitize(JSON.string(text).serialized())
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
    public var terminalSafe: JSON {
        switch self {
        case .string(let text): return .string(TerminalSafeText.sanitize(text))
        case .array(let items): return .array(items.map(\.terminalSafe))
        case .object(let object):
            var result = JSONObject()
            for (key, value) in object { result[TerminalSafeText.sanitize(key)] = value.terminalSafe }
            return .object(result)
        default: return self
        }
    }
}
