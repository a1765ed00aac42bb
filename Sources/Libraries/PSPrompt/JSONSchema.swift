import PSCore

/// A JSON Schema (draft 7) of the keywords this validator knows, read once and checked before
/// anything is sent: a keyword it does not know refuses the schema, never passes silently.
///
/// Validated: `type`, `properties`, `required`, `additionalProperties`, `items` (a schema, or
/// an array of schemas for the first elements), `enum`, `const`, `minimum`, `maximum`,
/// `minLength`, `maxLength` (in Unicode code points), `pattern`, `anyOf`, `oneOf`, and `$ref`
/// to a place in the same schema (`#`, `#/definitions/x`, `#/$defs/x`, any JSON pointer).
/// Kept but not checked: `$schema`, `$id` (at the top), `title`, `description`, `default`,
/// `examples`, `$comment`, and `definitions`/`$defs` to refer to. A `$ref` goes alone (draft 7
/// ignores the keywords beside it; rather than ignore them, the schema is refused).
///
/// `pattern` is a Swift Regex (its syntax is close to ECMAScript's: classes, quantifiers, lazy
/// quantifiers, groups, lookahead, `\d`/`\w` of ASCII as in ECMAScript; no lookbehind, and
/// `\s`, `\b` follow Unicode rules), matched anywhere in the string as JSON Schema asks.
public struct JSONSchema: @unchecked Sendable {
    /// The schema as given, for the server (`response_format`) or the instruction.
    public let json: JSON
    let nodes: [Node]

    public static let supportedKeywords = [
        "type", "properties", "required", "additionalProperties", "items", "enum", "const", "minimum", "maximum",
        "minLength", "maxLength", "pattern", "anyOf", "oneOf", "$ref",
    ]
    static let annotations: Set<String> = ["$schema", "title", "description", "default", "examples", "$comment", "definitions", "$defs"]
    static let typeNames = ["null", "boolean", "object", "array", "number", "string", "integer"]

    /// `FILE` or inline JSON (an argument starting with `{`, or `true`/`false`). `option` names
    /// where it came from in errors (`--schema`).
    public static func load(_ argument: String, option: String = "--schema") throws -> JSONSchema {
        let trimmed = argument.trimmingSpaces
        let inline = trimmed.first == "{" || trimmed == "true" || trimmed == "false"
        let shown = inline ? option : "\(option) \(TerminalSafeText.sanitize(argument))"
        let text = inline ? argument : try TextFile.read(argument, what: shown)
        let json: JSON
        do {
            json = try JSON.parse(text)
        } catch let error as JSONParseError {
            throw ToolError(.usage, "\(shown): the schema is not JSON: \(error)")
        }
        return try JSONSchema(json, source: shown)
    }

    public init(_ json: JSON, source: String = "--schema") throws {
        self.json = json
        var compiler = Compiler(root: json, source: source)
        _ = try compiler.compile(json, at: [])
        nodes = compiler.nodes
    }

    /// What is wrong with `value`, in the order found (empty: valid); at most `limit` of them.
    public func validate(_ value: JSON, limit: Int = 20) -> [SchemaViolation] {
        var check = Validation(nodes: nodes, limit: limit)
        check.run(value, node: 0, path: SchemaPath())
        return check.violations
    }

    public func isValid(_ value: JSON) -> Bool { validate(value, limit: 1).isEmpty }

    // MARK: The compiled form

    struct Node {
        /// A `true` or `false` schema.
        var always: Bool?
        var types: [String]?
        var properties: [(String, Int)] = []
        var required: [String] = []
        var additionalProperties: Int?
        var items: Int?
        var tupleItems: [Int]?
        var enumValues: [JSON]?
        var constValue: JSON?
        var minimum: JSON?
        var maximum: JSON?
        var minLength: Int?
        var maxLength: Int?
        var pattern: (source: String, regex: Regex<AnyRegexOutput>)?
        var anyOf: [Int]?
        var oneOf: [Int]?
        var ref: Int?
    }

    /// Turns each subschema into a `Node` once (by its JSON pointer), so that a `$ref` to a
    /// place and the walk reaching it share a node, and a recursive `$ref` ends.
    struct Compiler {
        let root: JSON
        let source: String
        var nodes: [Node] = []
        var byPointer: [String: Int] = [:]

        init(root: JSON, source: String) {
            self.root = root
            self.source = source
        }

        func refuse(_ pointer: [String], _ why: String) -> ToolError {
            ToolError(.usage, "\(source): \(why) at \(Self.pointerText(pointer))")
        }

        static func pointerText(_ pointer: [String]) -> String {
            "#" + pointer.map { "/" + TerminalSafeText.sanitize($0.replacing("~", with: "~0").replacing("/", with: "~1")) }.joined()
        }

        mutating func compile(_ schema: JSON, at pointer: [String]) throws -> Int {
            let key = Self.pointerText(pointer)
            if let index = byPointer[key] { return index }
            let index = nodes.count
            nodes.append(Node())
            byPointer[key] = index
            nodes[index] = try node(schema, at: pointer)
            return index
        }

        private mutating func node(_ schema: JSON, at pointer: [String]) throws -> Node {
            var node = Node()
            if case .bool(let always) = schema {
                node.always = always
                return node
            }
            guard let object = schema.objectValue else { throw refuse(pointer, "a schema must be an object or a boolean") }
            for key in object.keys where !JSONSchema.supportedKeywords.contains(key) && !JSONSchema.annotations.contains(key) {
                if key == "$id" && pointer.isEmpty { continue }
                throw refuse(pointer + [key], "unsupported keyword \"\(TerminalSafeText.sanitize(key))\" (this validator knows "
                    + JSONSchema.supportedKeywords.joined(separator: ", ") + ")")
            }
            if let ref = object["$ref"] {
                if let other = object.keys.first(where: { $0 != "$ref" && !JSONSchema.annotations.contains($0) && $0 != "$id" }) {
                    throw refuse(pointer + [other], "a keyword beside $ref (draft 7 would ignore it)")
                }
                guard let target = ref.stringValue, let tokens = Self.tokens(of: target) else {
                    throw refuse(pointer + ["$ref"], "a $ref outside the schema (only #, #/definitions/… and other #/pointers)")
                }
                guard let referred = Self.resolve(tokens, in: root) else {
                    throw refuse(pointer + ["$ref"], "a $ref to nothing (\(TerminalSafeText.sanitize(target)))")
                }
                node.ref = try compile(referred, at: tokens)
                return node
            }
            for (key, value) in object {
                let here = pointer + [key]
                switch key {
                case "type":
                    let names = value.stringValue.map { [$0] } ?? value.arrayValue?.compactMap(\.stringValue)
                    guard let names, !names.isEmpty, names.count == (value.arrayValue?.count ?? 1),
                          names.allSatisfy(JSONSchema.typeNames.contains) else {
                        throw refuse(here, "type must be one of \(JSONSchema.typeNames.joined(separator: ", ")), or an array of them")
                    }
                    node.types = names
                case "properties":
                    guard let members = value.objectValue else { throw refuse(here, "properties must be an object of schemas") }
                    for (name, subschema) in members { node.properties.append((name, try compile(subschema, at: here + [name]))) }
                case "required":
                    guard let names = value.arrayValue?.compactMap(\.stringValue), names.count == value.arrayValue?.count else {
                        throw refuse(here, "required must be an array of strings")
                    }
                    node.required = names
                case "additionalProperties":
                    node.additionalProperties = try compile(value, at: here)
                case "items":
                    if let tuple = value.arrayValue {
                        node.tupleItems = try tuple.enumerated().map { try compile($1, at: here + [String($0)]) }
                    } else {
                        node.items = try compile(value, at: here)
                    }
                case "enum":
                    guard let values = value.arrayValue else { throw refuse(here, "enum must be an array") }
                    node.enumValues = values
                case "const":
                    node.constValue = value
                case "minimum", "maximum":
                    guard value.doubleValue != nil else { throw refuse(here, "\(key) must be a number") }
                    if key == "minimum" { node.minimum = value } else { node.maximum = value }
                case "minLength", "maxLength":
                    guard let count = value.intValue, count >= 0, count <= Int.max else {
                        throw refuse(here, "\(key) must be an integer, 0 or more")
                    }
                    if key == "minLength" { node.minLength = Int(count) } else { node.maxLength = Int(count) }
                case "pattern":
                    guard let source = value.stringValue else { throw refuse(here, "pattern must be a string") }
                    guard let regex = try? Regex(source) else {
                        throw refuse(here, "a pattern this validator cannot read (Swift Regex syntax)")
                    }
                    node.pattern = (source, regex.matchingSemantics(.unicodeScalar).asciiOnlyDigits().asciiOnlyWordCharacters())
                case "anyOf", "oneOf":
                    guard let schemas = value.arrayValue, !schemas.isEmpty else { throw refuse(here, "\(key) must be a non-empty array of schemas") }
                    let compiled = try schemas.enumerated().map { try compile($1, at: here + [String($0)]) }
                    if key == "anyOf" { node.anyOf = compiled } else { node.oneOf = compiled }
                default:
                    break  // annotations; definitions are compiled when referred to
                }
            }
            return node
        }

        /// The tokens of a `$ref` within the schema: `#` or `#/a/b` (URI-escaped, `~0` `~1`).
        static func tokens(of ref: String) -> [String]? {
            guard ref.hasPrefix("#") else { return nil }
            let pointer = ref.dropFirst()
            if pointer.isEmpty { return [] }
            guard pointer.hasPrefix("/"), let decoded = percentDecoded(pointer) else { return nil }
            return decoded.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
                String($0.replacing("~1", with: "/").replacing("~0", with: "~"))
            }
        }

        static func resolve(_ tokens: [String], in root: JSON) -> JSON? {
            var here = root
            for token in tokens {
                switch here {
                case .object(let object): guard let next = object[token] else { return nil }; here = next
                case .array(let array):
                    guard let index = Int(token), array.indices.contains(index), String(index) == token else { return nil }
                    here = array[index]
                default: return nil
                }
            }
            return here
        }

        static func percentDecoded(_ text: Substring) -> String? {
            var bytes: [UInt8] = []
            var utf8 = text.utf8.makeIterator()
            while let byte = utf8.next() {
                if byte == UInt8(ascii: "%") {
                    guard let high = utf8.next(), let low = utf8.next(),
                          let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
                    bytes.append(value)
                } else {
                    bytes.append(byte)
                }
            }
            return String(validating: bytes, as: UTF8.self)
        }
    }
}

/// One way a value fails its schema: where (a jq path: `.`, `.items[2].name`) and what.
public struct SchemaViolation: Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String
    public var description: String { "\(path): \(message)" }

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
}

/// A place in the value, written as jq writes it.
struct SchemaPath {
    var text = ""

    func member(_ name: String) -> SchemaPath {
        let plain = !name.isEmpty && name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic && $0.isASCII || $0 == "_" || ("0"..."9").contains($0) }
            && !("0"..."9").contains(name.unicodeScalars.first!)
        return SchemaPath(text: text + (plain ? "." + name : "[" + JSON.string(name).serialized() + "]"))
    }

    func element(_ index: Int) -> SchemaPath { SchemaPath(text: text + "[\(index)]") }

    var shown: String { text.isEmpty ? "." : TerminalSafeText.sanitize(text) }
}
