import Foundation

/// deriveConversationTitle (apps/web/src/lib/repositories/derive-conversation-title.ts): the
/// title the current server gives an untitled conversation from its first user message: a
/// plan's boilerplate and one filler opening cut off, the first line that is not blank, a
/// heading's #s dropped, at most 50 UTF-16 units and then "...".
enum DerivedTitle {
    static let fillers = ["can you ", "could you ", "please ", "help me ", "i need to ", "i want to "]

    static func derive(_ content: String) -> String {
        var text = Substring(content)
        if let rest = dropping("implement the following plan:", from: text) { text = rest.drop { $0.isWhitespace } }
        if let rest = fillers.lazy.compactMap({ dropping($0, from: text) }).first { text = rest }
        let line = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .first { !$0.isEmpty } ?? ""
        var title = Substring(line)
        if title.hasPrefix("#") { title = title.drop { $0 == "#" }.drop { $0.isWhitespace } }
        let result = String(title)
        return result.utf16.count <= 50 ? result : result.javaScriptPrefix(50) + "..."
    }

    /// `text` without `prefix`, compared case-insensitively (the regexes' /i), or nil.
    private static func dropping(_ prefix: String, from text: Substring) -> Substring? {
        guard text.prefix(prefix.count).lowercased() == prefix else { return nil }
        return text.dropFirst(prefix.count)
    }
}
