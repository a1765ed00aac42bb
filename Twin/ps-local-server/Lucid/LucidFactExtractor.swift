import Foundation

/// The lucid dialect's fact extraction, deterministic instead of a model's: sentences of the
/// user's messages that say something about the user ("I am a nurse", "I work at …", "I live
/// in …", "I like …", "I have …", "my dog is called …") become facts in the third person, with a
/// category and a confidence. The same messages always give the same facts. Categories are
/// lucid-agent's (src/validation/fact.validation.ts:6-17 at 8cdb90b: who the user is, their
/// work and where they live are "personal").
enum LucidFactExtractor {
    struct Extracted: Sendable, Equatable {
        let content: String
        let category: String
        let confidence: Double
    }

    private struct Pattern {
        let phrases: [String]
        let verb: String
        let category: String
        let confidence: Double
        /// Keeps "a"/"an" after the phrase ("I am a nurse" → "User is a nurse").
        var keepsArticle = false
    }

    private static let patterns: [Pattern] = [
        Pattern(phrases: ["i work as "], verb: "works as", category: "personal", confidence: 0.95),
        Pattern(phrases: ["i work at ", "i work for "], verb: "works at", category: "personal", confidence: 0.9),
        Pattern(phrases: ["i am a ", "i'm a ", "i am an ", "i'm an "], verb: "is", category: "personal", confidence: 0.9,
                keepsArticle: true),
        Pattern(phrases: ["i live in "], verb: "lives in", category: "personal", confidence: 0.9),
        Pattern(phrases: ["i am from ", "i'm from ", "i come from "], verb: "is from", category: "personal", confidence: 0.85),
        Pattern(phrases: ["i like ", "i love ", "i enjoy ", "i prefer "], verb: "likes", category: "preference", confidence: 0.85),
        Pattern(phrases: ["i have "], verb: "has", category: "personal", confidence: 0.75),
    ]

    /// What follows "I have" or "I am a" in a request rather than a fact ("I have a question").
    private static let notAboutTheUser = ["a question", "an idea", "a problem", "an issue", "to ", "no ", "been ", "got "]

    /// Job words end like this ("engineer", "doctor", "pianist", "librarian", "consultant").
    private static let professionEndings = ["er", "or", "ist", "ian", "ant", "ent", "eer", "ect", "ive", "nurse", "chef"]

    static func extract(fromUserMessages messages: [String]) -> [Extracted] {
        var found: [Extracted] = []
        var seen = Set<String>()
        for message in messages {
            for sentence in sentences(message) {
                guard let fact = fact(in: sentence), seen.insert(fact.content.lowercased()).inserted else { continue }
                found.append(fact)
            }
        }
        return found
    }

    /// Sentences, and the clauses within one that start again with "I" or "my" ("I am a nurse
    /// and I like tea" is two).
    static func sentences(_ text: String) -> [String] {
        let clauses = clauseStart.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "\n")
        return clauses.split { ".!?;\n".contains($0) }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private static let clauseStart = try! NSRegularExpression(
        pattern: "(,\\s*|\\s+and\\s+|\\s+but\\s+)(?=(i|i'm|my)\\b)", options: [.caseInsensitive])

    static func fact(in sentence: String) -> Extracted? {
        let normalised = sentence.replacingOccurrences(of: "’", with: "'")
        for pattern in patterns {
            for phrase in pattern.phrases {
                guard let range = wordStart(of: phrase, in: normalised) else { continue }
                var rest = clause(String(normalised[range.upperBound...]))
                guard !rest.isEmpty, !notAboutTheUser.contains(where: { rest.lowercased().hasPrefix($0) }) else { continue }
                if pattern.keepsArticle {
                    rest = (phrase.hasSuffix("an ") ? "an " : "a ") + rest
                }
                var category = pattern.category
                if pattern.keepsArticle, let last = rest.split(separator: " ").last?.lowercased(),
                   professionEndings.contains(where: { last.hasSuffix($0) }) {
                    category = "personal"
                }
                var verb = pattern.verb
                if pattern.verb == "likes" { verb = String(phrase.split(separator: " ")[1]) + "s" }  // loves, enjoys, prefers
                if pattern.verb == "works at" { verb = "works " + String(phrase.split(separator: " ")[2]) }  // at, for
                return Extracted(content: "User \(verb) \(rest)", category: category, confidence: pattern.confidence)
            }
        }
        return possessive(normalised)
    }

    /// "my X is Y" → "User's X is Y".
    private static func possessive(_ sentence: String) -> Extracted? {
        guard let my = wordStart(of: "my ", in: sentence) else { return nil }
        let rest = String(sentence[my.upperBound...])
        guard let verb = rest.range(of: " is ") ?? rest.range(of: " are ") else { return nil }
        let subject = rest[..<verb.lowerBound].trimmingCharacters(in: .whitespaces)
        let value = clause(String(rest[verb.upperBound...]))
        guard !subject.isEmpty, subject.split(separator: " ").count <= 4, !value.isEmpty else { return nil }
        return Extracted(content: "User's \(subject)\(rest[verb]) \(value)".replacingOccurrences(of: "  ", with: " "),
                         category: "personal", confidence: 0.8)
    }

    /// Where `phrase` starts a word of `sentence` (case-insensitive).
    private static func wordStart(of phrase: String, in sentence: String) -> Range<String.Index>? {
        var from = sentence.startIndex
        while let range = sentence.range(of: phrase, options: .caseInsensitive, range: from..<sentence.endIndex) {
            if range.lowerBound == sentence.startIndex || sentence[sentence.index(before: range.lowerBound)] == " " {
                return range
            }
            from = sentence.index(after: range.lowerBound)
        }
        return nil
    }

    /// What follows the phrase, up to a comma or " but ", at most 12 words.
    private static func clause(_ text: String) -> String {
        var rest = text
        for stop in [",", " but ", " because ", " so "] {
            if let range = rest.range(of: stop) { rest = String(rest[..<range.lowerBound]) }
        }
        let words = rest.split(separator: " ").prefix(12)
        return words.joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: " \"'()"))
    }
}
