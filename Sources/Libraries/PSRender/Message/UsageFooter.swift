import PSCore

/// The token count of a reply, from its metadata's `usage` in any of the forms streams give it:
/// the AI SDK's (`inputTokens`, `outputTokens`), OpenAI's (`prompt_tokens`,
/// `completion_tokens`) and Gemini's (`promptTokenCount`, `candidatesTokenCount`, or
/// `input_tokens`, `output_tokens`). Shown as one dim line: `1,234 in · 567 out`.
enum UsageFooter {
    static func counts(_ usage: JSON?) -> (input: Int64?, output: Int64?)? {
        guard let usage = usage?.objectValue else { return nil }
        func first(_ keys: [String]) -> Int64? {
            keys.lazy.compactMap { usage[$0]?.intValue }.first.map { Int64($0) }
        }
        let input = first(["inputTokens", "prompt_tokens", "promptTokenCount", "input_tokens"])
        let output = first(["outputTokens", "completion_tokens", "candidatesTokenCount", "output_tokens"])
        guard input != nil || output != nil else { return nil }
        return (input, output)
    }

    static func line(_ usage: JSON?) -> StyledLine? {
        guard let counts = counts(usage) else { return nil }
        let words = [counts.input.map { "\(grouped($0)) in" }, counts.output.map { "\(grouped($0)) out" }].compactMap { $0 }
        return [Span(words.joined(separator: " · "), TextStyle(dim: true))]
    }

    /// 1234567 → "1,234,567".
    static func grouped(_ number: Int64) -> String {
        let digits = Array(String(number.magnitude))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return number < 0 ? "-" + text : text
    }
}
