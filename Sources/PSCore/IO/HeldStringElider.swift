#if canImport(Glibc)
import Glibc
#endif

/// A JSON string left out of a line because it repeats a text the reader holds: the line has `""`
/// at `offset` (its opening quote) where the string was, and `text` is the string's value.
public struct ElidedString: Sendable {
    public let offset: Int
    public let text: String
}

/// Follows a long NDJSON line as its bytes arrive and leaves out of it each string whose value is
/// one of the texts the reader holds, comparing the bytes as they come: the line never holds a
/// second copy of the text. (ps-render holds a streamed message's text; the records at the
/// stream's end repeat it whole, each a line as long as the text.)
///
/// A string that turns out to differ is written back as it began, escaped anew (the same value),
/// and the line goes on as it came. Only whole strings of at least `minimumLength` bytes are left
/// out; whatever is not plainly a JSON string (a raw control byte, a bad escape, a lone surrogate,
/// a line that ends inside it) is written back for the parser to judge.
struct HeldStringElider {
    /// Shorter texts are not worth comparing.
    static let minimumLength = JSON.reusableLength

    private enum Lexeme {
        case outside, string, escape

        /// Where a JSON text is after `byte`: in a string, just after a backslash in one, or out.
        func after(_ byte: UInt8) -> Lexeme {
            switch self {
            case .outside: return byte == 0x22 ? .string : .outside
            case .string: return byte == 0x5C ? .escape : byte == 0x22 ? .outside : .string
            case .escape: return .string
            }
        }
    }
    private var lexeme = Lexeme.outside
    private let texts: [String]
    /// While a string is compared with the texts: those it still equals in its first `matched`
    /// decoded bytes, where its opening quote is in the line, and the raw bytes of an escape the
    /// chunk cut off.
    private var comparing = false
    private var candidates: [Int] = []
    private var matched = 0
    private var quote = 0
    private var escape: [UInt8] = []
    private(set) var elided: [ElidedString] = []

    /// Nil when no text is long enough to be worth it.
    init?(texts: [String]) {
        self.texts = texts.filter { $0.utf8.count >= Self.minimumLength }
        if self.texts.isEmpty { return nil }
    }

    /// Takes over a line begun without it: its bytes so far are read again from the start of the
    /// string they end in, if they end in one, so that string is compared too.
    mutating func engage(_ line: PendingBytes) {
        var open: Int?
        var state = Lexeme.outside
        let bytes = line.bytes
        for index in bytes.indices {
            if state == .outside && bytes[index] == 0x22 { open = index }
            state = state.after(bytes[index])
        }
        guard state != .outside, let open else { return }
        let rest = Array(UnsafeRawBufferPointer(rebasing: bytes[(open + 1)...]))
        line.truncate(to: open + 1)
        lexeme = .string
        startComparing(quoteAt: open)
        rest.withUnsafeBytes { append($0, to: line) }
    }

    /// Appends the bytes of the line that came, leaving out what repeats a held text.
    mutating func append(_ bytes: UnsafeRawBufferPointer, to line: PendingBytes) {
        var index = 0
        while index < bytes.count {
            if comparing {
                index = compare(bytes, from: index, line)
            } else {
                index = lex(bytes, from: index, line)
            }
        }
    }

    /// The line ended (its newline or the input's end): a string still being compared is written back.
    mutating func finishLine(_ line: PendingBytes) {
        if comparing { giveUp(line) }
    }

    /// Copies bytes to the line, following quotes and escapes, up to where a string begins that
    /// is to be compared; returns where it stopped.
    private mutating func lex(_ bytes: UnsafeRawBufferPointer, from start: Int, _ line: PendingBytes) -> Int {
        var index = start
        while index < bytes.count {
            let before = lexeme
            lexeme = lexeme.after(bytes[index])
            index += 1
            if before == .outside && lexeme == .string {
                line.append(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
                startComparing(quoteAt: line.count - 1)
                return index
            }
        }
        line.append(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        return index
    }

    private mutating func startComparing(quoteAt offset: Int) {
        comparing = true
        candidates = Array(texts.indices)
        matched = 0
        quote = offset
        escape = []
    }

    /// Compares the string's bytes from `start` with the candidates; returns where it stopped
    /// (the end of the bytes, or where the string ended or differed).
    private mutating func compare(_ bytes: UnsafeRawBufferPointer, from start: Int, _ line: PendingBytes) -> Int {
        var index = start
        while index < bytes.count {
            // A two-byte escape whole in these bytes (most of them: \n, \"): its byte, at once.
            if escape.isEmpty, bytes[index] == 0x5C, index + 1 < bytes.count, var plain = Self.shortEscape(bytes[index + 1]) {
                guard withUnsafeBytes(of: &plain, { narrow($0) }) else {
                    escape = [0x5C, bytes[index + 1]]
                    return giveUp(line, at: index + 2)
                }
                index += 2
                continue
            }
            if !escape.isEmpty || bytes[index] == 0x5C {
                escape.append(bytes[index])
                index += 1
                guard let length = Self.escapeLength(escape) else { continue }
                guard escape.count == length else { continue }
                // At most 4 bytes: one scalar.
                var decoded: UInt64 = 0
                let piece = escape.withUnsafeBytes { raw in
                    withUnsafeMutableBytes(of: &decoded) { out in
                        JSONEscapes.decode(raw, from: 0, into: out.baseAddress!.assumingMemoryBound(to: UInt8.self), capacity: 8)
                    }
                }
                // A bad escape or a lone surrogate: the parser judges it.
                guard let piece, piece.next == length, piece.written > 0,
                    withUnsafeBytes(of: &decoded, { narrow(UnsafeRawBufferPointer(rebasing: $0[..<piece.written])) })
                else {
                    return giveUp(line, at: index)
                }
                escape.removeAll(keepingCapacity: true)
                continue
            }
            // A run of plain bytes, up to a quote, a backslash or a control byte.
            var end = index
            while end < bytes.count && bytes[end] != 0x22 && bytes[end] != 0x5C && bytes[end] >= 0x20 { end += 1 }
            if end > index {
                if !narrow(UnsafeRawBufferPointer(rebasing: bytes[index..<end])) { return giveUp(line, at: index) }
                index = end
            }
            guard index < bytes.count, bytes[index] != 0x5C else { continue }
            // A quote ends the string; a control byte is not JSON, and the parser says so.
            guard bytes[index] == 0x22, let whole = candidates.first(where: { texts[$0].utf8.count == matched }) else {
                return giveUp(line, at: index)
            }
            line.append(0x22)
            elided.append(ElidedString(offset: quote, text: texts[whole]))
            comparing = false
            lexeme = .outside
            return index + 1
        }
        return index
    }

    /// Keeps the candidates whose next bytes are `decoded`; false when none is left.
    private mutating func narrow(_ decoded: UnsafeRawBufferPointer) -> Bool {
        // One candidate (most lines): compared, with nothing to keep track of.
        if candidates.count == 1 {
            var text = texts[candidates[0]]
            let same = text.withUTF8 { text in
                text.count - matched >= decoded.count
                    && (decoded.isEmpty || memcmp(text.baseAddress! + matched, decoded.baseAddress!, decoded.count) == 0)
            }
            if same { matched += decoded.count }
            return same
        }
        var kept = 0
        for candidate in candidates {
            let same = texts[candidate].utf8.withContiguousStorageIfAvailable { text in
                text.count - matched >= decoded.count && memcmp(text.baseAddress! + matched, decoded.baseAddress!, decoded.count) == 0
            }
            guard same == true else { continue }
            candidates[kept] = candidate
            kept += 1
        }
        guard kept > 0 else { return false }
        candidates.removeLast(candidates.count - kept)
        matched += decoded.count
        return true
    }

    /// The string is not one of the texts: the bytes compared go to the line, escaped anew (the
    /// same value), then the raw bytes of an escape being read, and the line is read on from
    /// `index` as any string. Returns `index`.
    @discardableResult
    private mutating func giveUp(_ line: PendingBytes, at index: Int = 0) -> Int {
        comparing = false
        lexeme = .string
        if matched > 0, let candidate = candidates.first {
            texts[candidate].utf8.withContiguousStorageIfAvailable { text in
                var piece: [UInt8] = []
                var start = 0
                // In pieces: the bytes compared can be most of a long text.
                while start < matched {
                    let end = min(matched, start + (64 << 10))
                    piece.removeAll(keepingCapacity: true)
                    JSON.writeStringBody(utf8: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: text[start..<end])), to: &piece)
                    piece.withUnsafeBytes { line.append($0) }
                    start = end
                }
            }
        }
        matched = 0
        let held = escape
        escape = []
        held.withUnsafeBytes { append($0, to: line) }
        return index
    }

    /// The byte a two-byte escape stands for, from its second byte; nil for `\u` and bad ones.
    private static func shortEscape(_ second: UInt8) -> UInt8? {
        switch second {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return second
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        default: return nil
        }
    }

    /// The length of the escape that `bytes` begins (a backslash first), once it can be told: 2,
    /// 6 for `\uXXXX`, 12 for a high surrogate and the escape that must follow it.
    private static func escapeLength(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        guard bytes[1] == UInt8(ascii: "u") else { return 2 }
        guard bytes.count >= 3 else { return nil }
        // D8 to DB: a high surrogate (any other first digit is not one, whatever follows).
        switch bytes[2] | 0x20 {
        case UInt8(ascii: "d"):
            guard bytes.count >= 4 else { return nil }
            switch bytes[3] | 0x20 {
            case UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b"): return 12
            default: return 6
            }
        default: return 6
        }
    }
}
