/// What `--help` prints: a glance that fits one screen. The summary, USAGE, the arguments and
/// options (each with the first sentence of its help), the subcommands and three to six examples.
/// The rest (each option's whole text, the description, ENVIRONMENT, EXIT STATUS, every
/// example) is in the man page, which scripts/generate-docs makes from the same definitions
/// (`--experimental-dump-help`, the tree this reads too).
public struct GlanceHelp {
    public static let width = 80
    public static let maxExamples = 6
    static let minExamples = 3
    /// The most lines the glance takes (the examples give way first).
    static let maxLines = 60
    /// Labels longer than this stand on their own line, their text on the next.
    static let labelColumn = 26

    /// The command's node of the `--experimental-dump-help` tree.
    let command: JSON
    /// The full name, as in "ps-auth login".
    let name: String
    /// ArgumentParser's own USAGE text (already wrapped, with its hanging indent).
    let usage: String

    /// The glance for the command named by `helpMessage` (ArgumentParser's help text, whose USAGE
    /// line names the command and its subcommand), read from the root's `dump` (JSON).
    /// Nil when either cannot be read: the caller then prints ArgumentParser's own help.
    public init?(helpMessage: String, dump: String) {
        guard let tree = try? JSON.parse(dump), var node = tree["command"],
            let usage = Self.usageText(in: helpMessage)
        else { return nil }
        // The usage names the subcommand, in brackets when it is the default one.
        let words = usage.split(whereSeparator: { $0 == " " || $0 == "\n" }).dropFirst()
            .map { String($0.filter { $0 != "[" && $0 != "]" }) }
        var name = node["commandName"]?.stringValue ?? ""
        for word in words {
            guard let sub = node["subcommands"]?.arrayValue?.first(where: { $0["commandName"]?.stringValue == word })
            else { break }
            node = sub
            name += " " + word
        }
        self.command = node
        self.name = name
        self.usage = usage
    }

    public func rendered() -> String {
        var lines = Self.wrap(command["abstract"]?.stringValue ?? "", width: Self.width)
        lines += ["", "USAGE: " + usage]
        let arguments = (command["arguments"]?.arrayValue ?? []).filter { $0["shouldDisplay"]?.boolValue != false }
        let rows = Self.rows(arguments.filter { $0["kind"]?.stringValue == "positional" })
        let optionRows = Self.optionRows(arguments.filter { $0["kind"]?.stringValue != "positional" })
        var subcommands: [(String, String)] = []
        for sub in command["subcommands"]?.arrayValue ?? [] {
            guard let subName = sub["commandName"]?.stringValue, subName != "help" else { continue }
            subcommands.append((subName, Self.firstSentence(sub["abstract"]?.stringValue ?? "")))
        }
        let column = 4 + ((rows + optionRows + subcommands).map(\.0.count).filter { $0 <= Self.labelColumn }.max() ?? 0)
        for (title, section) in [("ARGUMENTS:", rows), ("OPTIONS:", optionRows), ("SUBCOMMANDS:", subcommands)]
        where !section.isEmpty {
            lines += ["", title]
            for (label, text) in section { lines += Self.row(label, text, column: column) }
        }
        // The examples fill what is left of the screen: at least minExamples, at most maxExamples.
        let examples = Self.examples(in: command["discussion"]?.stringValue ?? "")
        if !examples.isEmpty {
            lines += ["", "EXAMPLES:"]
            var room = Self.maxLines - lines.count - 2
            for (index, example) in examples.prefix(Self.maxExamples).enumerated() {
                guard index < Self.minExamples || example.count <= room else { break }
                lines += example
                room -= example.count
            }
        }
        let page = name.split(separator: " ").first.map(String.init) ?? name
        lines += ["", "The description, environment and exit status: man \(page)"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The options' rows, in order; the options of a titled group (`@OptionGroup(title:)`) share
    /// one row: the title, then their names (their whole text is in the man page).
    static func optionRows(_ options: [JSON]) -> [(String, String)] {
        var result: [(String, String)] = []
        var untitled: [JSON] = []
        var titles: Set<String> = []
        for option in options {
            guard let title = option["sectionTitle"]?.stringValue, !title.isEmpty else {
                untitled.append(option)
                continue
            }
            guard titles.insert(title).inserted else { continue }
            result += rows(untitled)
            untitled = []
            let names = options.filter { $0["sectionTitle"]?.stringValue == title }
                .compactMap { label($0).split(separator: " ").first.map(String.init) }
            result.append((title + ":", names.joined(separator: ", ")))
        }
        return result + rows(untitled)
    }

    /// One row per argument; flags that share their help (--raw, --render) share a row.
    static func rows(_ arguments: [JSON]) -> [(String, String)] {
        var rows: [(String, String)] = []
        var lastAbstract: String?
        for argument in arguments {
            let abstract = argument["abstract"]?.stringValue ?? ""
            let label = Self.label(argument)
            if abstract == lastAbstract, !abstract.isEmpty, let last = rows.popLast() {
                rows.append((last.0 + ", " + label, last.1))
                continue
            }
            rows.append((label, firstSentence(abstract)))
            lastAbstract = abstract
        }
        return rows
    }

    static func label(_ argument: JSON) -> String {
        let valueName = argument["valueName"]?.stringValue ?? "value"
        let repeating = argument["isRepeating"]?.boolValue == true ? " ..." : ""
        if argument["kind"]?.stringValue == "positional" { return "<\(valueName)>" + repeating }
        let names = (argument["names"]?.arrayValue ?? []).compactMap { name -> String? in
            guard let text = name["name"]?.stringValue else { return nil }
            return (name["kind"]?.stringValue == "short" ? "-" : "--") + text
        }
        var label = names.sorted { $0.count < $1.count }.joined(separator: ", ")
        if argument["kind"]?.stringValue == "option" { label += " <\(valueName)>" }
        return label
    }

    static func row(_ label: String, _ text: String, column: Int) -> [String] {
        let indent = String(repeating: " ", count: column)
        let wrapped = wrap(text, width: width - column)
        var head = "  " + label
        var lines: [String] = []
        if head.count + 2 > column {
            lines.append(head)
            head = ""
        }
        guard let first = wrapped.first else { return lines.isEmpty ? [head] : lines }
        lines.append(head + String(repeating: " ", count: column - head.count) + first)
        lines += wrapped.dropFirst().map { indent + $0 }
        return lines
    }

    /// The text up to the end of its first sentence (a full stop after a word, then a space).
    static func firstSentence(_ text: String) -> String {
        let scalars = text.unicodeScalars
        var beforeBefore: Unicode.Scalar?, before: Unicode.Scalar?
        var index = scalars.startIndex
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            if scalar == ".", next != scalars.endIndex, scalars[next] == " ", let before,
                beforeBefore != ".",  // e.g. i.e.
                endsAWord(before)
            {
                return String(scalars[...index])
            }
            (beforeBefore, before) = (before, scalar)
            index = next
        }
        return text
    }

    private static func endsAWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {  // the Unicode property lookup is slow, and help text is nearly all ASCII
            let byte = UInt8(scalar.value)
            return (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || scalar == ")" || scalar == "'"
        }
        return scalar.properties.isAlphabetic
    }

    /// The examples of the discussion's "EXAMPLES:" section: each its lines, as written (an
    /// example split with `\` continues on the lines indented deeper).
    /// Read as bytes: a discussion is pages long, and this runs at every --help.
    static func examples(in discussion: String) -> [[String]] {
        var examples: [[String]] = []
        var inSection = false
        for line in discussion.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if !inSection {
                inSection = line.elementsEqual("EXAMPLES:".utf8)
                continue
            }
            guard line.starts(with: "  ".utf8) else { break }
            let text = String(Substring(line))
            if line.starts(with: "   ".utf8), !examples.isEmpty {
                examples[examples.count - 1].append(text)
            } else {
                examples.append([text])
            }
        }
        return examples
    }

    static func usageText(in helpMessage: String) -> String? {
        var lines = helpMessage.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("USAGE: ") }) else { return nil }
        lines = Array(lines[start...])
        let end = lines.firstIndex(where: { $0.isEmpty }) ?? lines.count
        return lines[..<end].joined(separator: "\n").dropFirst("USAGE: ".count).description
    }

    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var lineWidth = 0  // line.count, kept rather than counted again for every word
        for word in text.split(separator: " ") {
            let wordWidth = word.count
            if !line.isEmpty, lineWidth + 1 + wordWidth > width {
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            if !line.isEmpty {
                line += " "
                lineWidth += 1
            }
            line += word
            lineWidth += wordWidth
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
