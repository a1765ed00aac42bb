import PSCore
import PSSend

/// What ps-send does with a secret found in what it is about to send (SecretScanner): refuse
/// (exit 2, naming where it is and its kind, never the secret), redact it, or send it.
struct SecretCheck {
    enum Mode { case refuse, redact, allow }
    let mode: Mode

    /// `text` as it may be sent; `source` names it in messages (the message, stdin, --attach FILE).
    func pass(_ text: String, from source: String) throws -> String {
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
                Diagnostics.writeLine("ps-send: redacted \(found.count) secret\(found.count == 1 ? "" : "s") in \(source): line \(lines)")
            }
            return redacted
        case .allow:
            return text
        }
    }
}
