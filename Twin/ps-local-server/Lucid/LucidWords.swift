import Foundation

/// Words for the lucid dialect's "semantic" parts, made deterministic: a text's content words
/// (lowercased, common words dropped, plural and -ing/-ed endings cut), the cosine similarity
/// of two texts' word counts, and a text's most frequent words.
enum LucidWords {
    static let stopWords: Set<String> = [
        "a", "an", "the", "is", "are", "am", "was", "were", "be", "been", "i", "im", "me", "my", "mine", "you", "your",
        "we", "our", "it", "its", "this", "that", "these", "those", "of", "to", "in", "on", "at", "for", "with", "and",
        "or", "but", "as", "by", "from", "about", "what", "which", "who", "whom", "how", "why", "when", "where", "do",
        "does", "did", "done", "has", "have", "had", "know", "knows", "lucid", "user", "users", "so", "if", "then",
        "than", "there", "here", "can", "could", "would", "should", "will", "just", "not", "no", "yes", "please",
        "tell", "any", "some", "all", "very", "really", "also", "hello", "hi", "hey", "thanks", "thank", "s", "t", "d", "ll", "ve", "re", "m",
    ]

    static func words(_ text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
            .filter { !stopWords.contains($0) }.map(stem)
    }

    static func stem(_ word: String) -> String {
        if word.count > 4, word.hasSuffix("ies") { return String(word.dropLast(3)) + "y" }
        if word.count > 5, word.hasSuffix("ing") { return String(word.dropLast(3)) }
        if word.count > 4, word.hasSuffix("ed") { return String(word.dropLast(2)) }
        if word.count > 3, word.hasSuffix("s"), !word.hasSuffix("ss") { return String(word.dropLast()) }
        return word
    }

    /// The cosine of the two texts' word-count vectors, 0 to 1, rounded to 4 decimals.
    static func similarity(_ a: String, _ b: String) -> Double {
        let left = counts(words(a)), right = counts(words(b))
        guard !left.isEmpty, !right.isEmpty else { return 0 }
        var dot = 0.0
        for (word, count) in left { dot += Double(count * (right[word] ?? 0)) }
        let norm = { (counts: [String: Int]) in sqrt(Double(counts.values.reduce(0) { $0 + $1 * $1 })) }
        return ((dot / (norm(left) * norm(right))) * 10_000).rounded() / 10_000
    }

    /// The `count` most frequent words, ties in order of first appearance.
    static func keywords(_ texts: [String], count: Int) -> [String] {
        var frequency: [String: Int] = [:]
        var order: [String] = []
        for word in texts.flatMap(words) where word.count > 2 {
            if frequency[word] == nil { order.append(word) }
            frequency[word, default: 0] += 1
        }
        return order.enumerated().sorted { (frequency[$0.element]!, -$0.offset) > (frequency[$1.element]!, -$1.offset) }
            .prefix(count).map(\.element)
    }

    private static func counts(_ words: [String]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for word in words { counts[word, default: 0] += 1 }
        return counts
    }
}
