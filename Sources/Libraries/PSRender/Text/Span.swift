import PSCore

/// The colours the renderer uses (the 8 basic ANSI colours, so the user's terminal theme decides
/// the exact shade).
public enum TextColor: UInt8, Sendable {
    case red = 31, green = 32, yellow = 33, blue = 34, magenta = 35, cyan = 36
}

/// How a run of text looks. Only the ansi format shows it; plain drops it.
public struct TextStyle: Equatable, Sendable {
    public var bold = false
    public var dim = false
    public var italic = false
    public var underline = false
    public var strike = false
    public var color: TextColor?
    /// The target of a hyperlink (OSC 8 in ansi).
    public var link: String?
    /// Links in text of this style print their URL after them (`text <url>`) instead of being
    /// OSC 8 hyperlinks. Set on the base style a whole text is rendered from (see
    /// `MarkdownRenderer.init`), so that it reaches every block renderer of that text.
    public var printsURLs = false

    public init(bold: Bool = false, dim: Bool = false, italic: Bool = false, underline: Bool = false,
                strike: Bool = false, color: TextColor? = nil, link: String? = nil) {
        self.bold = bold
        self.dim = dim
        self.italic = italic
        self.underline = underline
        self.strike = strike
        self.color = color
        self.link = link
    }

    public static let plain = TextStyle()

    /// Whether the style has SGR parameters (bold, dim, italic, underline, strike, a colour).
    var hasSGR: Bool { bold || dim || italic || underline || strike || color != nil }

    /// Appends `ESC [ parameters m` for the style (which must have some), parameters in the order
    /// 1 bold, 2 dim, 3 italic, 4 underline, 9 strike, then the colour.
    func appendSGR(to out: inout String) {
        out += "\u{1B}["
        var first = true
        func add(_ parameter: UInt8) {
            if !first { out += ";" }
            first = false
            if parameter >= 10 { out.unicodeScalars.append(Unicode.Scalar(0x30 + parameter / 10)) }
            out.unicodeScalars.append(Unicode.Scalar(0x30 + parameter % 10))
        }
        if bold { add(1) }
        if dim { add(2) }
        if italic { add(3) }
        if underline { add(4) }
        if strike { add(9) }
        if let color { add(color.rawValue) }
        out += "m"
    }
}

/// A run of text without line breaks in one style.
public struct Span: Equatable, Sendable {
    public var text: String
    public var style: TextStyle

    public init(_ text: String, _ style: TextStyle = .plain) {
        self.text = text
        self.style = style
    }

    public var width: Int { DisplayWidth.of(text) }
}

/// One output line before it is turned into bytes for a format.
public typealias StyledLine = [Span]

extension Array where Element == Span {
    public var displayWidth: Int { reduce(0) { $0 + $1.width } }

    /// The line's first `columns` display columns, and the style of the span where it was cut
    /// (nil when all of it fits).
    func cut(toColumns columns: Int) -> (line: StyledLine, cutStyle: TextStyle?) {
        var result: StyledLine = []
        var used = 0
        for span in self {
            var text = String.UnicodeScalarView()
            for scalar in span.text.unicodeScalars {
                let width = DisplayWidth.of(scalar)
                if used + width > columns { break }
                text.append(scalar)
                used += width
            }
            if !text.isEmpty { result.append(Span(String(text), span.style)) }
            if used >= columns || text.count < span.text.unicodeScalars.count { return (result, span.style) }
        }
        return (result, nil)
    }
    public var plainText: String { map(\.text).joined() }
}

/// Turns styled lines into the bytes of the ansi or plain format.
public enum LineEncoder {
    /// ansi: every styled span is opened and reset on its own, so each line stands alone (a line
    /// can be printed, cut or copied without a style bleeding into the next).
    public static func encode(_ line: StyledLine, ansi: Bool) -> String {
        var out: [UInt8] = []
        encode(line, ansi: ansi, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the line's bytes to `out`.
    public static func encode(_ line: StyledLine, ansi: Bool, into out: inout String) {
        out += encode(line, ansi: ansi)
    }

    /// Appends the line's bytes and a newline to `out`; with `fingerprint`, returns a hash of those
    /// bytes (to tell later whether a line rendered again is the one written, without keeping it).
    /// 32 bits of it: a long message keeps one per line (4 bytes, not 8, for each of its lines),
    /// and a changed line passes for the one written once in four billion.
    @discardableResult
    static func append(_ line: StyledLine, ansi: Bool, to out: inout [UInt8], fingerprint: Bool = false) -> UInt32 {
        let start = out.count
        encode(line, ansi: ansi, into: &out)
        out.append(0x0A)
        guard fingerprint else { return 0 }
        var hasher = Hasher()
        out.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0[start...])) }
        return UInt32(truncatingIfNeeded: hasher.finalize())
    }

    /// Appends the line's bytes to `out`.
    static func encode(_ line: StyledLine, ansi: Bool, into out: inout [UInt8]) {
        // By index: the spans are read where they are, not copied out (a retain and a release
        // of the text and of the link for each).
        guard ansi else {
            for index in line.indices { out.append(contentsOf: line[index].text.utf8) }
            return
        }
        for index in line.indices where !line[index].text.isEmpty {
            let target = line[index].style.link.flatMap(TerminalSafeText.linkTarget)
            if let target {
                out.append(contentsOf: osc8Start)
                out.append(contentsOf: target.utf8)
                out.append(contentsOf: stringTerminator)
            }
            let sgr = line[index].style.sgr
            out.append(contentsOf: sgr)
            out.append(contentsOf: line[index].text.utf8)
            if !sgr.isEmpty { out.append(contentsOf: reset) }
            if target != nil {
                out.append(contentsOf: osc8Start)
                out.append(contentsOf: stringTerminator)
            }
        }
    }

    private static let osc8Start: [UInt8] = Array("\u{1B}]8;;".utf8)
    private static let stringTerminator: [UInt8] = Array("\u{1B}\\".utf8)
    private static let reset: [UInt8] = Array("\u{1B}[0m".utf8)
}

extension TextStyle {
    /// `ESC [ parameters m` for the style (see appendSGR), empty when it has none.
    var sgr: [UInt8] {
        guard hasSGR else { return [] }
        var text = ""
        appendSGR(to: &text)
        return Array(text.utf8)
    }
}

extension String {
    /// The text with control characters (ESC, BEL, CR, ...) replaced, so that no input can send
    /// escape sequences to the terminal. Tabs become spaces.
    var withoutControlCharacters: String {
        // Most text has nothing to replace: keep it without a copy.
        if TerminalSafeText.isSafe(self, allowingLineBreaks: false) { return self }
        var scalars = String.UnicodeScalarView()
        for scalar in TerminalSafeText.sanitize(self).unicodeScalars {
            switch scalar {
            case "\t": scalars.append(contentsOf: "    ".unicodeScalars)
            case "\n": scalars.append("\u{240A}")
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }
}
