/// Moves the headings of a turn's text below the turn's own heading in the markdown transcript:
/// `#` becomes `###` under a `## Assistant`, and so on, capped at level 6. ATX headings are
/// shifted in place; a setext heading (a paragraph over `===` or `---`) becomes an ATX heading
/// on one line, since setext has no level past 2.
///
/// It works a line at a time, for text that arrives line by line, and follows only as much of
/// markdown's block structure as it needs: fenced code (whose `#` lines are not headings), HTML
/// blocks that reach across blank lines, and whether a paragraph starts at the top level. Where
/// it cannot tell, it leaves the lines as they are.
struct TranscriptHeadings {
    /// Levels added to every heading (the level of the turn heading).
    let shift: Int
    /// The lines of a paragraph that a setext underline could still make a heading. They are
    /// held back until the paragraph ends.
    private(set) var held: [String] = []
    private var fence: (character: Character, length: Int)?
    /// The end marker of an HTML block that blank lines do not end.
    private var rawHTMLEnd: String?
    private var context = Context.boundary

    private enum Context {
        /// After a blank line or a one-line block: a line at column 0 starts a top-level paragraph.
        case boundary
        /// Inside a quote, a list, an HTML block or a paragraph that is not held, until a blank line.
        case flowing
    }

    init(shift: Int) {
        self.shift = shift
    }

    /// The whole text's lines, shifted.
    static func shift(_ lines: [String], by shift: Int) -> [String] {
        var headings = TranscriptHeadings(shift: shift)
        var out: [String] = []
        for line in lines { out += headings.take(line) }
        return out + headings.finish()
    }

    /// Takes the next complete line; returns the lines that are now settled, in order.
    mutating func take(_ line: String) -> [String] {
        if let open = fence {
            if let close = Self.fenceRun(Self.withoutContainerMarkers(line)), close.character == open.character,
                close.length >= open.length, close.rest.allSatisfy({ $0 == " " })
            {
                fence = nil
                context = .boundary
            }
            return [line]
        }
        if let end = rawHTMLEnd {
            if line.contains(end) { rawHTMLEnd = nil }
            return [line]
        }
        if line.allSatisfy({ $0 == " " }) {
            context = .boundary
            return finish() + [line]
        }
        let indent = line.prefix { $0 == " " }.count
        let body = line.dropFirst(indent)
        if !held.isEmpty, indent <= 3, let level = Self.setextLevel(body) {
            let text = held.map { $0.trimmingSpaces }.joined(separator: " ")
            held = []
            context = .boundary
            // A `#` at the end would be read as a closing sequence: close it with one more.
            return [heading(level) + " " + text + (text.hasSuffix("#") ? " #" : "")]
        }
        if let run = Self.fenceRun(Self.withoutContainerMarkers(line)),
            run.character == "~" || !run.rest.contains("`")
        {
            fence = (run.character, run.length)
            return finish() + [line]
        }
        guard indent <= 3 else { return paragraphLine(line, indent: indent) }
        if let level = Self.atxLevel(body) {
            context = .boundary
            return finish() + [String(repeating: " ", count: indent) + heading(level) + body.dropFirst(level)]
        }
        if Self.isThematicBreak(body) {
            context = .boundary
            return finish() + [line]
        }
        if body.hasPrefix(">") || Self.listMarkerLength(body) != nil {
            context = .flowing
            return finish() + [line]
        }
        if body.hasPrefix("<") {
            let lowered = body.lowercased()
            if let end = Self.rawHTMLEnds.first(where: { lowered.hasPrefix($0.start) })?.end,
                !lowered.dropFirst(2).contains(end)
            {
                rawHTMLEnd = end
            }
            context = .flowing
            return finish() + [line]
        }
        return paragraphLine(line, indent: indent)
    }

    /// The held lines, released: the text ended, or the paragraph did.
    mutating func finish() -> [String] {
        defer { held = [] }
        return held
    }

    /// A line of paragraph text (or indented code): held while it may turn out a heading's.
    private mutating func paragraphLine(_ line: String, indent: Int) -> [String] {
        // A table or a link reference definition is not a paragraph; nor is a quote's or a list's
        // lazy continuation, or a line of indented code.
        let plain = !line.contains("|") && !(line.hasPrefix("[") && line.contains("]:"))
        if !held.isEmpty {
            if plain { held.append(line); return [] }
            context = .flowing
            return finish() + [line]
        }
        if context == .boundary && indent == 0 && plain {
            held = [line]
            return []
        }
        context = .flowing
        return [line]
    }

    private func heading(_ level: Int) -> String {
        String(repeating: "#", count: min(6, level + shift))
    }

    /// `# ` to `###### ` (or the #s alone): the level.
    static func atxLevel(_ body: Substring) -> Int? {
        let level = body.prefix { $0 == "#" }.count
        guard (1...6).contains(level) else { return nil }
        let after = body.dropFirst(level)
        return after.isEmpty || after.first == " " ? level : nil
    }

    /// `===` (level 1) or `---` (level 2), trailing spaces allowed.
    static func setextLevel(_ body: Substring) -> Int? {
        guard let character = body.first, character == "=" || character == "-" else { return nil }
        let run = body.prefix { $0 == character }
        guard body.dropFirst(run.count).allSatisfy({ $0 == " " }) else { return nil }
        return character == "=" ? 1 : 2
    }

    static func isThematicBreak(_ body: Substring) -> Bool {
        guard let character = body.first, "*-_".contains(character) else { return false }
        let marks = body.filter { $0 != " " }
        return marks.count >= 3 && marks.allSatisfy { $0 == character }
    }

    /// `- `, `* `, `+ `, `1. `, `1) ` (or the marker alone): its length.
    static func listMarkerLength(_ body: Substring) -> Int? {
        let digits = body.prefix { $0.isASCII && $0.isNumber }.count
        let length: Int
        if digits == 0 {
            guard let first = body.first, "-*+".contains(first) else { return nil }
            length = 1
        } else {
            guard digits <= 9, let delimiter = body.dropFirst(digits).first, delimiter == "." || delimiter == ")" else { return nil }
            length = digits + 1
        }
        let after = body.dropFirst(length)
        return after.isEmpty || after.first == " " ? length : nil
    }

    /// The line without the quote markers and list markers it starts with, where a fence inside
    /// a quote or a list item begins.
    static func withoutContainerMarkers(_ line: String) -> Substring {
        var rest = line[...]
        while true {
            rest = rest.drop { $0 == " " }
            if rest.hasPrefix(">") {
                rest = rest.dropFirst()
            } else if let length = listMarkerLength(rest), !rest.dropFirst(length).isEmpty {
                rest = rest.dropFirst(length)
            } else {
                return rest
            }
        }
    }

    /// A run of 3 or more ``` or ~~~ at the start: its character, length and what follows it.
    static func fenceRun(_ text: Substring) -> (character: Character, length: Int, rest: Substring)? {
        guard let character = text.first, character == "`" || character == "~" else { return nil }
        let length = text.prefix { $0 == character }.count
        return length >= 3 ? (character, length, text.dropFirst(length)) : nil
    }

    /// HTML blocks that end at a marker rather than at a blank line (CommonMark's kinds 1 to 5).
    static let rawHTMLEnds: [(start: String, end: String)] = [
        ("<!--", "-->"), ("<?", "?>"), ("<![cdata[", "]]>"), ("<pre", "</pre>"), ("<script", "</script>"),
        ("<style", "</style>"), ("<textarea", "</textarea>"), ("<!", ">"),
    ]
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        var text = self[...]
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
