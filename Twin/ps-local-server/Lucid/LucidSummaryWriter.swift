/// The lucid dialect's summaries, deterministic instead of a model's: the conversation's most
/// frequent words make the overview; the first and last things the user said, and how many
/// replies there were, make the two perspectives.
enum LucidSummaryWriter {
    struct Text: Equatable {
        let overview: String
        let userPerspective: String
        let modelPerspective: String
    }

    static func write(_ messages: [LucidStore.Message], title: String?) -> Text {
        let asked = messages.filter { $0.role == "user" }.map(\.content)
        let replies = messages.filter { $0.role == "assistant" }.count
        let keywords = LucidWords.keywords(asked, count: 3)
        let topic = keywords.isEmpty ? (title ?? "a few things") : keywords.joined(separator: ", ")
        let first = asked.first.map(short) ?? "nothing in particular"
        var user = "I asked about \(first)"
        if asked.count > 1, let last = asked.last { user += ", and last about \(short(last))" }
        return Text(
            overview: "Discussion about \(topic)",
            userPerspective: user + ".",
            modelPerspective: "The user inquired about \(topic) in \(count(asked.count, "message")); "
                + "I answered \(count(replies, "time")).")
    }

    private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)" + (n == 1 ? "" : "s") }

    private static func short(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let quoted = line.count > 60 ? String(line.prefix(59)) + "…" : line
        return "\"" + quoted + "\""
    }
}
