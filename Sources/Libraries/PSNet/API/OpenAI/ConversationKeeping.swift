import PSCore

/// Who keeps the conversations of an OpenAI-compatible server: the client
/// (`ClientKeptConversations`, for servers that keep none) or the server
/// (`ServerKeptConversations`, PageSpace's `/api/v1`). `OpenAIAdapter` holds one and
/// leaves every conversation question to it; what is left (models, the stream) is the same.
protocol ConversationKeeping: AnyObject {
    /// What `ps-auth status` says the credential reaches, given the models listed.
    func reachDescription(models: [String]) -> String
    /// What `ps-auth logout` tells the user.
    var logoutNote: String { get }

    func defaultConversationID(creating new: NewConversation?) throws -> String?
    func requireConversation(_ id: String) throws
    /// A new conversation (for the agent `agentPageID` when `ps-send --page` names one).
    func createConversation(_ new: NewConversation, agentPageID: String?) throws -> String?
    func deleteConversation(_ id: String) throws
    func listConversations(_ body: (JSON) throws -> Void) throws
    /// The messages of a conversation, UIMessages oldest first.
    func messages(_ source: HistorySource) throws -> [JSON]

    /// The model that `ps-send --page ID` means.
    func agentModel(pageID: String) throws -> String
    /// The fields of a send's body other than `model` and `stream`: the messages, and
    /// whatever names the conversation; with `tools`, the client's tools and the reply so far.
    func sendFields(conversationID: String, message: JSON, system: String?, tools: ToolOffer?) throws -> JSONObject

    /// Whether `keepTurn` keeps anything (then the reply is rebuilt from the stream).
    var keepsTurns: Bool { get }
    /// Starts the new conversation `id` with `messages` (only where the client keeps it).
    func seedConversation(_ id: String, with messages: [JSON]) throws
    func keepTurn(conversationID: String, message: JSON, reply: JSON?) throws
}
