import PSCore

/// What a command that sends messages (ps-send, ps-batch) does with a secret found in what it is about to send (SecretScanner): refuse
/// (exit 2, naming where it is and its kind, never the secret), redact it, or send it.
public struct SecretCheck: Sendable {
    public enum Mode: Sendable { case refuse, redact, allow }
    public let mode: Mode

    public init(mode: Mode) { self.mode = mode }

    /// `text` as it may be sent; `source` names it in messages (the message, stdin, --attach FILE).
    public func pass(_ text: String, from source: String) throws -> String {
        guard mode != .allow, !text.isEmpty else { return text }
        switch mode {
        case .refuse:
            guard let first = SecretScanner.findings(in: text).first else { return text }
            throw ToolError(.usage, "\(source) line \(first.line) holds what looks like a secret (\(first.kind)); nothing was sent "
                + "(--redact sends it as [REDACTED:\(first.kind)], --allow-secrets as it is)")
        case .redact:
            let (redacted, found) = SecretScanner.redact(text)
            if !found.isEmpty {
                let lines = found.map { "\($0.line) (\($0.kind))" }.joined(separator: ", ")
                Diagnostics.writeLine("\(Diagnostics.programName): redacted \(found.count) secret\(found.count == 1 ? "" : "s") in \(source): line \(lines)")
            }
            return redacted
        case .allow:
            return text
        }
    }
}
