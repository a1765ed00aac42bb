import PSCore

/// One pass of a value against a compiled schema, collecting violations up to a limit.
struct Validation {
    let nodes: [JSONSchema.Node]
    let limit: Int
    var violations: [SchemaViolation] = []
    /// How deep the schema's nodes go in the pass: a `$ref` that comes back to itself without
    /// going into the value (`{"anyOf":[{"$ref":"#"}]}`) would never end.
    private var depth = 0
    static let maxDepth = 1000

    init(nodes: [JSONSchema.Node], limit: Int) {
        self.nodes = nodes
        self.limit = limit
    }

    var full: Bool { violations.count >= limit }

    mutating func fail(_ path: SchemaPath, _ message: String) {
        if !full { violations.append(SchemaViolation(path: path.shown, message: message)) }
    }

    /// Whether `value` matches `node` (a branch of anyOf/oneOf), without reporting why not.
    mutating func matches(_ value: JSON, node: Int, path: SchemaPath) -> Bool {
        var branch = Validation(nodes: nodes, limit: 1)
        branch.depth = depth
        branch.run(value, node: node, path: path)
        return branch.violations.isEmpty
    }

    mutating func run(_ value: JSON, node index: Int, path: SchemaPath) {
        guard !full else { return }
        depth += 1
        defer { depth -= 1 }
        guard depth < Self.maxDepth else {
            return fail(path, "the schema refers to itself without end here ($ref)")
        }
        let node = nodes[index]
        if let always = node.always {
            if !always { fail(path, "is not allowed here (the schema is false)") }
            return
        }
        if let ref = node.ref { return run(value, node: ref, path: path) }
        if let types = node.types, !types.contains(where: { Self.has(value, type: $0) }) {
            let wanted = types.count == 1 ? types[0] : "one of " + types.joined(separator: ", ")
            fail(path, "is \(Self.article(Self.typeName(value))), not \(types.count == 1 ? Self.article(wanted) : wanted)")
        }
        if let values = node.enumValues, !values.contains(value) {
            fail(path, "is not one of the values allowed: \(Self.shortened(.array(values)))")
        }
        if let constant = node.constValue, value != constant {
            fail(path, "is not \(Self.shortened(constant)), the only value allowed")
        }
        switch value {
        case .object(let object):
            for name in node.required where object[name] == nil {
                fail(path, "has no member \(Self.shortened(.string(name))), which is required")
            }
            for (name, member) in object {
                if let (_, property) = node.properties.first(where: { $0.0 == name }) {
                    run(member, node: property, path: path.member(name))
                } else if let additional = node.additionalProperties {
                    if nodes[additional].always == false {
                        fail(path, "has a member \(Self.shortened(.string(name))) the schema does not allow (additionalProperties)")
                    } else {
                        run(member, node: additional, path: path.member(name))
                    }
                }
            }
        case .array(let elements):
            for (position, element) in elements.enumerated() {
                if let tuple = node.tupleItems {
                    if position < tuple.count { run(element, node: tuple[position], path: path.element(position)) }
                } else if let items = node.items {
                    run(element, node: items, path: path.element(position))
                }
            }
        case .string(let text):
            if node.minLength != nil || node.maxLength != nil {
                let length = text.unicodeScalars.count
                if let minLength = node.minLength, length < minLength {
                    fail(path, "is \(length) characters long, shorter than minLength \(minLength)")
                }
                if let maxLength = node.maxLength, length > maxLength {
                    fail(path, "is \(length) characters long, longer than maxLength \(maxLength)")
                }
            }
            if let pattern = node.pattern, (try? pattern.regex.firstMatch(in: text)) == nil {
                fail(path, "does not match the pattern \(Self.shortened(.string(pattern.source)))")
            }
        case .integer, .real, .number:
            if let minimum = node.minimum, Self.compare(value, minimum) < 0 {
                fail(path, "is \(value.serialized()), less than the minimum \(minimum.serialized())")
            }
            if let maximum = node.maximum, Self.compare(value, maximum) > 0 {
                fail(path, "is \(value.serialized()), more than the maximum \(maximum.serialized())")
            }
        default:
            break
        }
        if let anyOf = node.anyOf, !anyOf.contains(where: { matches(value, node: $0, path: path) }) {
            fail(path, "matches none of the \(anyOf.count) schemas of anyOf")
        }
        if let oneOf = node.oneOf {
            let matched = oneOf.filter { matches(value, node: $0, path: path) }.count
            if matched != 1 {
                fail(path, "matches \(matched == 0 ? "none" : String(matched)) of the \(oneOf.count) schemas of oneOf, not exactly one")
            }
        }
    }

    static func has(_ value: JSON, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("object", .object), ("array", .array), ("string", .string): return true
        case ("number", .integer), ("number", .real), ("number", .number): return true
        case ("integer", .integer): return true
        case ("integer", .real(let d)): return d.rounded() == d
        case ("integer", .number(let literal)):
            // Beyond 64 bits or Double's range: an integer when written without fraction or exponent.
            return !literal.contains(where: { ".eE".contains($0) })
        default: return false
        }
    }

    static func typeName(_ value: JSON) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .object: return "object"
        case .array: return "array"
        case .string: return "string"
        case .integer: return "integer"
        case .real(let d): return d.rounded() == d ? "integer" : "number"
        case .number: return has(value, type: "integer") ? "integer" : "number"
        }
    }

    static func article(_ name: String) -> String {
        name == "null" ? "null" : (name.first.map { "aeiou".contains($0) } == true ? "an " : "a ") + name
    }

    /// -1, 0 or 1: exact for two integers, else as Doubles.
    static func compare(_ a: JSON, _ b: JSON) -> Int {
        if case .integer(let x) = a, case .integer(let y) = b { return x < y ? -1 : x > y ? 1 : 0 }
        let x = a.doubleValue ?? 0, y = b.doubleValue ?? 0
        return x < y ? -1 : x > y ? 1 : 0
    }

    /// A value in a message: its JSON, cut short when long, safe for a terminal.
    static func shortened(_ value: JSON) -> String {
        let text = TerminalSafeText.sanitize(value.serialized())
        return text.count <= 120 ? text : String(text.prefix(117)) + "..."
    }
}
