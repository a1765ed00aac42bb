/// The message of the SyntaxError that `await request.json()` throws in a Next.js route
/// (V8's JSON.parse) for a body that is not JSON, as far as a route's catch-all puts it in
/// its answer (`Failed to consult agent: ${error.message}`). Two forms are V8's own: an
/// empty body ("Unexpected end of JSON input") and a token no JSON value starts with or
/// continues (`Unexpected token 'x', "…" is not valid JSON`, the text around it cut as V8
/// cuts it: the whole body when under 21 characters, else 10 characters either side). A
/// body that starts as JSON and breaks further in gets the same form at its first character
/// (V8 names the exact place and has a dozen wordings for it; nothing reads them).
enum JavaScriptParseError {
    struct Failure: Error {
        let message: String
    }

    static func message(for bytes: [UInt8]) -> String {
        let text = Array(String(decoding: bytes, as: UTF8.self))
        let whitespace: Set<Character> = [" ", "\t", "\n", "\r"]
        guard let start = text.firstIndex(where: { !whitespace.contains($0) }) else { return "Unexpected end of JSON input" }
        var position = start
        // A literal (true, false, null) is read letter by letter: the first letter that
        // differs is the unexpected token.
        for literal in ["true", "false", "null"] where text[start] == literal.first {
            for (offset, expected) in literal.enumerated() {
                guard start + offset < text.count else { return "Unexpected end of JSON input" }
                if text[start + offset] != expected { position = start + offset; break }
            }
        }
        return "Unexpected token '\(text[position])', \(context(text, position)) is not valid JSON"
    }

    /// V8's kMaxContextCharacters (10) and kMinOriginalSourceLengthForContext (21).
    private static func context(_ text: [Character], _ position: Int) -> String {
        guard text.count >= 21 else { return "\"\(String(text))\"" }
        let from = max(0, position - 10), to = min(text.count, position + 10)
        return (from > 0 ? "..." : "") + "\"\(String(text[from..<to]))\"" + (to < text.count ? "..." : "")
    }
}
