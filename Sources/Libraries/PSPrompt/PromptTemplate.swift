import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// A message with `{{name}}` placeholders, and an optional front matter between `---` lines that
/// sets `system`, `model` and `schema`.
///
/// ```
/// ---
/// system: You review code.
/// model: gpt-5.4-mini
/// schema: review.schema.json
/// ---
/// Review this change to {{project}}:
/// {{stdin}}
/// ```
///
/// A placeholder is `{{` name `}}` (letters, digits, `_`, `-`, `.`; spaces inside the braces
/// allowed). `{{stdin}}` is the piped text. `\{{` writes a literal `{{`; any other `{{` that
/// starts no placeholder is an error, so that a typo is never sent as it is. Front matter
/// values are one line (quotes optional, `"…"` read as a JSON string), or `|` and the indented
/// lines below. A `schema` is inline JSON or a file, relative to the template's folder.
public struct PromptTemplate: Sendable {
    /// What the template is called in messages: `--template review` or the path.
    public let source: String
    public let system: String?
    public let model: String?
    /// The schema: inline JSON, or a file's path (made relative to the template's folder).
    public let schema: String?
    private let pieces: [Piece]

    /// The name that places the piped text.
    public static let stdinName = "stdin"

    enum Piece: Sendable {
        case text(String)
        case placeholder(String)
    }

    /// The placeholders' names, each once, in order of first use (`stdin` included).
    public var placeholders: [String] {
        var seen: [String] = []
        for case .placeholder(let name) in pieces where !seen.contains(name) { seen.append(name) }
        return seen
    }

    public var placesStdin: Bool { placeholders.contains(Self.stdinName) }

    /// `FILE` or `NAME`: a reference with a `/` or ending in `.md` is a file; any other is a
    /// name, `$XDG_CONFIG_HOME/ps-tools/templates/NAME.md` (else `~/.config/ps-tools/…`).
    /// `option` names the option in errors (`--template`).
    public static func load(_ reference: String, environment: [String: String], option: String = "--template") throws -> PromptTemplate {
        let shown = "\(option) \(TerminalSafeText.sanitize(reference))"
        let path: String
        if reference.contains("/") || reference.hasSuffix(".md") {
            path = reference
        } else {
            guard !reference.isEmpty, !reference.hasPrefix(".") else {
                throw ToolError(.usage, "\(shown): not a template name (give NAME for templates/NAME.md, or a file's path)")
            }
            path = templatesDirectory(environment) + "/" + reference + ".md"
            guard access(path, F_OK) == 0 else {
                throw ToolError(.usage, "\(shown): no template \(TerminalSafeText.sanitize(path)) (a file's path needs a / or .md)")
            }
        }
        let text = try TextFile.read(path, what: shown)
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        return try PromptTemplate(text: text, source: shown, folder: folder)
    }

    /// Where templates are looked up by name.
    public static func templatesDirectory(_ environment: [String: String]) -> String {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/ps-tools/templates" }
        return (environment["HOME"] ?? "") + "/.config/ps-tools/templates"
    }

    /// A template from its text. `folder` (ending in `/`, or empty) is where a relative
    /// `schema` file is.
    public init(text: String, source: String, folder: String = "") throws {
        self.source = source
        var body = Substring(text)
        var fields: [String: String] = [:]
        if body.hasPrefix("---\n") || body.hasPrefix("---\r\n") {
            (fields, body) = try Self.frontMatter(body, source: source)
        }
        system = fields["system"]
        model = fields["model"]
        if let schema = fields["schema"] {
            let inline = schema.first == "{" || schema == "true" || schema == "false"
            self.schema = inline || schema.hasPrefix("/") ? schema : folder + schema
        } else {
            schema = nil
        }
        // A file's last newline ends the file, not the message.
        while body.last == "\n" || body.last == "\r\n" { body.removeLast() }
        pieces = try Self.pieces(of: body, source: source)
    }

    /// The filled text: each placeholder replaced by its value in `vars`, `{{stdin}}` by
    /// `stdin`; piped text with no `{{stdin}}` follows the message after a blank line. A
    /// placeholder with no value, a value with no placeholder, or a `{{stdin}}` with nothing
    /// piped is a usage error naming it; `varsName` says where values come from (`--var`).
    public func fill(_ vars: [String: String], stdin: String?, varsName: String = "--var") throws -> String {
        if vars[Self.stdinName] != nil {
            throw ToolError(.usage, "\(varsName) stdin: {{stdin}} is the piped text, not a value to give")
        }
        let names = placeholders
        if let unused = vars.keys.sorted().first(where: { !names.contains($0) }) {
            throw ToolError(.usage, "\(varsName) \(TerminalSafeText.sanitize(unused)): \(source) has no {{\(TerminalSafeText.sanitize(unused))}}")
        }
        if let missing = names.first(where: { $0 != Self.stdinName && vars[$0] == nil }) {
            throw ToolError(.usage, "\(source): {{\(missing)}} has no value (give \(varsName) \(missing)=VALUE)")
        }
        if placesStdin && stdin == nil {
            throw ToolError(.usage, "\(source): {{stdin}} has no value (pipe the text in)")
        }
        var text = ""
        for piece in pieces {
            switch piece {
            case .text(let literal): text += literal
            case .placeholder(Self.stdinName): text += stdin!
            case .placeholder(let name): text += vars[name]!
            }
        }
        if let stdin, !placesStdin, !stdin.isEmpty { text += "\n\n" + stdin }
        return text
    }

    /// `name=value` of `--var`; the value may hold `=`.
    public static func variable(_ argument: String, option: String = "--var") throws -> (String, String) {
        guard let equals = argument.firstIndex(of: "="), isName(argument[..<equals]) else {
            throw ToolError(.usage, "\(option) \(TerminalSafeText.sanitize(argument)): give name=value (a name of letters, digits, _ - .)")
        }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    static func isName(_ name: Substring) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0) }
    }

    // MARK: Reading

    private static func pieces(of body: Substring, source: String) throws -> [Piece] {
        var pieces: [Piece] = []
        var literal = ""
        var rest = body
        while let open = rest.firstRange(of: "{{") {
            var before = rest[..<open.lowerBound]
            if before.hasSuffix("\\") {  // \{{ is a literal {{
                before.removeLast()
                literal += before
                literal += "{{"
                rest = rest[open.upperBound...]
                continue
            }
            literal += before
            let after = rest[open.upperBound...]
            guard let close = after.firstRange(of: "}}"),
                  case let name = after[..<close.lowerBound].trimmingSpaces, isName(name), !name.contains("{") else {
                let line = 1 + body[..<open.lowerBound].filter { $0 == "\n" }.count
                throw ToolError(.usage, "\(source), line \(line): {{ starts no placeholder ({{name}}); write \\{{ for a literal {{")
            }
            if !literal.isEmpty { pieces.append(.text(literal)); literal = "" }
            pieces.append(.placeholder(String(name)))
            rest = after[close.upperBound...]
        }
        literal += rest
        if !literal.isEmpty { pieces.append(.text(literal)) }
        return pieces
    }

    static let frontMatterKeys = ["system", "model", "schema"]

    /// The fields between the first `---` line and the next, and the body after them.
    private static func frontMatter(_ text: Substring, source: String) throws -> ([String: String], Substring) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        lines.removeFirst()
        guard let end = lines.firstIndex(where: { $0 == "---" }) else {
            throw ToolError(.usage, "\(source): the front matter has no closing --- line")
        }
        var fields: [String: String] = [:]
        var index = 0
        while index < end {
            let line = lines[index]
            index += 1
            if line.trimmingSpaces.isEmpty || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":"), case let key = String(line[..<colon].trimmingSpaces),
                  frontMatterKeys.contains(key) else {
                throw ToolError(.usage, "\(source), line \(index + 1): the front matter sets only system, model and schema (key: value)")
            }
            guard fields[key] == nil else { throw ToolError(.usage, "\(source), line \(index + 1): \(key) is set twice") }
            var value = String(line[line.index(after: colon)...].trimmingSpaces)
            if value == "|" {
                var block: [Substring] = []
                while index < end, lines[index].isEmpty || lines[index].first == " " || lines[index].first == "\t" {
                    block.append(lines[index])
                    index += 1
                }
                let indent = block.filter { !$0.trimmingSpaces.isEmpty }.map { $0.prefix { $0 == " " || $0 == "\t" }.count }.min() ?? 0
                value = block.map { String($0.dropFirst(min(indent, $0.count))) }.joined(separator: "\n")
                while value.hasSuffix("\n") { value.removeLast() }
            } else if value.hasPrefix("\"") {
                guard let string = (try? JSON.parse(value))?.stringValue else {
                    throw ToolError(.usage, "\(source), line \(index + 1): \(key)'s quoted value is not a JSON string")
                }
                value = string
            }
            guard !value.isEmpty else { throw ToolError(.usage, "\(source), line \(index + 1): \(key) has no value") }
            fields[key] = value
        }
        let body = lines[(end + 1)...].joined(separator: "\n")
        return (fields, Substring(body))
    }
}

extension StringProtocol {
    var trimmingSpaces: SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return self[endIndex...] }
        return self[first...last]
    }
}
