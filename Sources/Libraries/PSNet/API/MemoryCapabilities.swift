import PSCore

// What a backend that remembers its user can do (Lucid): facts it learns about the user and
// summaries of conversations. Capabilities in the sense of Capabilities.swift: an adapter
// adopts them, `ps-facts` and `ps-summary` ask for them with `Capabilities.require`.

/// Facts the backend keeps about the user: extracted from conversations, switched off when
/// wrong, searched by meaning.
public protocol FactsAPI: APIAdapter {
    /// Calls `body` with each fact record, all pages; only the active ones unless `includeInactive`.
    func listFacts(includeInactive: Bool, _ body: (JSON) throws -> Void) throws
    /// Asks the server to extract facts from a conversation (`messageLimit`: how many of its
    /// latest messages it reads; nil = the server's default).
    func extractFacts(conversationID: String, messageLimit: Int?) throws -> FactExtraction
    /// Marks a fact active or not; returns the fact record as the server shows it then.
    func setFact(_ id: String, active: Bool) throws -> JSON
    /// The facts most like `query`, best first: records `{fact, similarity}`.
    func searchFacts(_ query: String, minSimilarity: Double?, limit: Int?) throws -> [JSON]
    /// How many messages (the user's and the replies) a conversation holds: the cadence of
    /// automatic extraction (`ps-send --extract-facts-every`) counts these.
    func messageCount(conversationID: String) throws -> Int
}

/// What an extraction found (`extracted`: content, category, confidence) and the fact records
/// it created (facts already known are found again but not created twice).
public struct FactExtraction: Sendable {
    public var extracted: [JSON]
    public var created: [JSON]
    public var message: String?

    public init(extracted: [JSON], created: [JSON], message: String?) {
        self.extracted = extracted
        self.created = created
        self.message = message
    }
}

/// Summaries the backend writes of a conversation.
public protocol SummariesAPI: APIAdapter {
    /// Asks for a summary of the conversation's latest `messageCount` messages (nil = the
    /// server's default); returns the summary record.
    func generateSummary(conversationID: String, messageCount: Int?) throws -> JSON
    /// Calls `body` with each summary record of the conversation, all pages.
    func listSummaries(conversationID: String, _ body: (JSON) throws -> Void) throws
}
