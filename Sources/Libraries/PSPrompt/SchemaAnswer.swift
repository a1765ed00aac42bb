import PSCore

/// An assistant's answer read as the JSON value a schema asks for, and the words that ask for
/// it (where the server has no native way) and for a corrected one.
public struct SchemaAnswer: Sendable {
    /// The value, when the text is JSON.
    public let value: JSON?
    /// Empty: the value is valid.
    public let violations: [SchemaViolation]
    public let schema: JSONSchema

    public var isValid: Bool { value != nil && violations.isEmpty }

    /// Reads `text` (surrounding blanks and one enclosing ``` fence, as models often add, are
    /// taken away) and validates it.
    public init(text: String, schema: JSONSchema) {
        self.schema = schema
        do {
            let value = try JSON.parse(String(Self.unfenced(text)))
            self.value = value
            violations = schema.validate(value)
        } catch {
            value = nil
            violations = [SchemaViolation(path: ".", message: "is not JSON (\(TerminalSafeText.sanitize((error as? JSONParseError)?.description ?? "\(error)")))")]
        }
    }

    static func unfenced(_ text: String) -> Substring {
        var body = Substring(text).trimmingCharacters
        guard body.hasPrefix("```"), body.hasSuffix("```"), body.count >= 6,
              let firstLineEnd = body.firstIndex(of: "\n") else { return body }
        body = body[body.index(after: firstLineEnd)...].dropLast(3)
        return body.trimmingCharacters
    }

    /// Sent after the message where the server has no native structured output.
    public static func instruction(_ schema: JSONSchema) -> String {
        "Answer with only a JSON value (no other text, no code fence) that matches this JSON Schema:\n" + schema.json.serialized()
    }

    /// Sent back, in the same conversation, when the answer does not match: what is wrong, and
    /// the schema again (a server without native structured output has it only in words).
    public func repairMessage() -> String {
        var lines = ["Your answer does not match the JSON Schema:"]
        lines += violations.map { "- at \($0.path): \($0.message)" }
        lines.append("Answer again with only the corrected JSON value (no other text, no code fence) that matches this JSON Schema:")
        lines.append(schema.json.serialized())
        return lines.joined(separator: "\n")
    }

    /// The first violation, for the error line.
    public var firstError: String {
        violations.first.map { "at \($0.path): \($0.message)" } ?? ""
    }
}

extension Substring {
    var trimmingCharacters: Substring {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return self[endIndex...] }
        return self[first...last]
    }
}
