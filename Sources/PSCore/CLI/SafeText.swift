/// Text from a message or a server made safe to show on a terminal: control characters (C0
/// but newline and tab, DEL, C1) and the bidirectional overrides and isolates, which could
/// move the cursor, clear the screen, write the clipboard (OSC 52) or reorder what is shown,
/// are replaced by a visible `\u{…}` escape. Everything else is left as it is.
public enum SafeText {
    public static func sanitized(_ text: String, keepNewlines: Bool = true) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0, keepNewlines: keepNewlines) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar, keepNewlines: keepNewlines) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    static func isUnsafe(_ scalar: Unicode.Scalar, keepNewlines: Bool) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: return !keepNewlines
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
