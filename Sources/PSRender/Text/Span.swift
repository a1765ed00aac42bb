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
        var out = ""
        encode(line, ansi: ansi, into: &out)
        return out
    }

    /// Appends the line's bytes and a newline to `out`; with `fingerprint`, returns a hash of those
    /// bytes (to tell later whether a line rendered again is the one written, without keeping it).
    @discardableResult
    static func append(_ line: StyledLine, ansi: Bool, to out: inout String, fingerprint: Bool = false) -> Int {
        let start = out.utf8.count
        encode(line, ansi: ansi, into: &out)
        out += "\n"
        guard fingerprint else { return 0 }
        var hasher = Hasher()
        out.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: $0[start...]))) }
        return hasher.finalize()
    }

    /// Appends the line's bytes to `out`.
    public static func encode(_ line: StyledLine, ansi: Bool, into out: inout String) {
        guard ansi else {
            for span in line { out += span.text }
            return
        }
        for span in line where !span.text.isEmpty {
            let style = span.style
            let target = style.link.flatMap(TerminalSafeText.linkTarget)
            if let target {
                out += "\u{1B}]8;;"
                out += target
                out += "\u{1B}\\"
            }
            let styled = style.hasSGR
            if styled { style.appendSGR(to: &out) }
            out += span.text
            if styled { out += "\u{1B}[0m" }
            if target != nil { out += "\u{1B}]8;;\u{1B}\\" }
        }
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
