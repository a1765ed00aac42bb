import PSCore

/// A plain OpenAI-compatible server keeps no conversation: the client keeps each one
/// (`LocalConversations`, one file per conversation) and sends it whole, with the system
/// prompt first, with every message.
final class ClientKeptConversations: ConversationKeeping {
    let conversations: LocalConversations

    init(_ conversations: LocalConversations) {
        self.conversations = conversations
    }

    func reachDescription(models: [String]) -> String {
        "chat completions with " + (models.isEmpty ? "no model listed" : models.prefix(8).joined(separator: ", ")
            + (models.count > 8 ? " and \(models.count - 8) more" : ""))
    }

    var logoutNote: String { "an OpenAI-compatible server has no session to end: only the local copy of the key is removed" }

    func defaultConversationID(creating new: NewConversation?) throws -> String? {
        if let current = try conversations.current() { return current }
        return try new.flatMap { try createConversation($0, agentPageID: nil) }
    }

    func requireConversation(_ id: String) throws {
        guard conversations.exists(id) else {
            throw ToolError(.notFound, "there is no conversation \(TerminalSafeText.quoted(id)) kept for this profile "
                + CommandHints.unknownConversation)
        }
    }

    /// A conversation is kept from its first turn on; until then it is only an id.
    func createConversation(_ new: NewConversation, agentPageID: String?) throws -> String? { RandomID.conversationID() }

    func deleteConversation(_ id: String) throws { try conversations.remove(id) }

    func listConversations(_ body: (JSON) throws -> Void) throws {
        try conversations.list().forEach(body)
    }

    func messages(_ source: HistorySource) throws -> [JSON] {
        guard case .global(let id) = source else { throw Self.noAgents }
        try requireConversation(id)
        return try conversations.messages(id)
    }

    func agentModel(pageID: String) throws -> String { throw Self.noAgents }

    func sendFields(conversationID: String, message: JSON, system: String?, tools: ToolOffer?) throws -> JSONObject {
        let history = try conversations.messages(conversationID)
        var fields = JSONObject()
        let reply = tools?.reply.map { [$0] } ?? []
        fields["messages"] = .array(ChatMessages.make(system: system, history: history + [message] + reply))
        fields["stream_options"] = ["include_usage": true]
        if let tools { fields["tools"] = .array(tools.definitions) }
        return fields
    }

    var keepsTurns: Bool { true }

    func seedConversation(_ id: String, with messages: [JSON]) throws {
        guard !conversations.exists(id) else {
            throw ToolError(.usage, "conversation \(TerminalSafeText.quoted(id)) already has messages; --history starts a new one")
        }
        try conversations.append(messages, to: id)
    }

    /// Keeps the turn: the user's message and the reply as it was rebuilt from the stream.
    func keepTurn(conversationID: String, message: JSON, reply: JSON?) throws {
        try conversations.append([message] + (reply.map { [$0] } ?? []), to: conversationID)
    }

    static let noAgents = ToolError(.usage, "an OpenAI-compatible server has no Page AI agents")
}
