import PSCore

// What only some APIs can do is a protocol of its own, which an adapter adopts when its API
// can. A command asks for the capability (`Capabilities.require`) and never looks at the API
// kind: a backend that gains a feature adopts the protocol, and every command then offers it.

/// Giving a conversation a new title.
public protocol ConversationRenaming: APIAdapter {
    /// Returns the conversation record as the server shows it after the change.
    func renameConversation(_ id: String, title: String) throws -> JSON
}

/// Deleting a conversation (and its messages, where the server keeps them).
public protocol ConversationDeleting: APIAdapter {
    /// Throws `notFound` for a conversation the user does not have.
    func deleteConversation(_ id: String) throws
}

/// Reading and changing the user's settings on the server (`ps-settings`).
public protocol SettingsAPI: APIAdapter {
    /// The settings as a JSON object.
    func showSettings() throws -> JSON
    /// Sets the given keys; returns the settings after the change. A value the server
    /// refuses is a usage error in the server's words.
    func changeSettings(_ change: JSONObject) throws -> JSON
}

/// The user's plan, subscription and storage on the server (`ps-settings --subscription`).
public protocol SubscriptionAPI: APIAdapter {
    /// The status as a JSON object, as the server gives it.
    func subscriptionStatus() throws -> JSON
}

/// Offering the client's own tools to the model, and sending their results back: the model
/// asks for a call, the client runs it (ps-send --tool).
public protocol ClientToolCalling: APIAdapter {
    /// The send of `message` with `tools` offered and, after the first step, the reply so far
    /// (its calls with their results), for the model to go on from there.
    func toolSendRequest(_ target: SendTarget, message: JSON, options: SendOptions, tools: ToolOffer) throws -> HTTPRequest
}

/// The client's tools (OpenAI function definitions, `{type:"function", function:{name,
/// description, parameters}}`) and the reply they have answered so far, a UIMessage whose
/// `step-start` parts divide its steps.
public struct ToolOffer: Sendable {
    public var definitions: [JSON]
    public var reply: JSON?

    public init(definitions: [JSON], reply: JSON? = nil) {
        self.definitions = definitions
        self.reply = reply
    }
}

public enum Capabilities {
    /// The adapter as `T`, or a usage error (exit 2) saying that this API cannot `what`.
    public static func require<T>(_ adapter: APIAdapter, _ type: T.Type, toDo what: String) throws -> T {
        guard let capable = adapter as? T else {
            throw ToolError(.usage, "the \(adapter.kind.rawValue) API cannot \(what)")
        }
        return capable
    }
}

/// Following a reply still being generated from a given chunk on (after the connection
/// carrying it broke), and listing the replies in flight.
public protocol StreamResuming: APIAdapter {
    /// Whether this credential may join streams (the API may allow it to some tokens only).
    var canResumeStreams: Bool { get }
    /// The request that joins the reply `messageID` from chunk `fromSeq` (counted from 0).
    func joinRequest(messageID: String, fromSeq: Int) -> HTTPRequest
    /// The user's replies being generated now: `{messageId, conversationId, …}` records.
    func activeStreams() throws -> [JSON]
}

/// Changing the text of a stored message, or deleting one.
public protocol MessageEditing: APIAdapter {
    /// Replaces the message's text (its tool parts stay).
    func editMessage(_ messageID: String, in source: HistorySource, content: String) throws
    func deleteMessage(_ messageID: String, in source: HistorySource) throws
}

/// Rewinding a conversation to before a message: it and every later message go.
public protocol MessageUndoing: APIAdapter {
    /// What an undo would remove (`messagesAffected`, …), changing nothing.
    func undoPreview(_ messageID: String) throws -> JSON
    /// Removes the message and those after it; `withChanges` also undoes what their tools changed.
    func undo(_ messageID: String, withChanges: Bool) throws -> JSON
}

/// Starting a conversation from messages given by the user (another backend's export, say),
/// where the client keeps the conversation and sends it whole.
public protocol ConversationSeeding: APIAdapter {
    /// Makes `messages` (UIMessages, oldest first) the start of the new conversation `id`.
    func seedConversation(_ id: String, with messages: [JSON]) throws
}

/// Following a conversation live through the server's realtime service (Socket.IO).
public protocol ConversationFollowing: APIAdapter {
    /// The realtime service's Engine.IO endpoint when none is configured.
    var realtimeEndpoint: String { get }
    /// A short-lived token for the realtime handshake.
    func realtimeToken() throws -> String
}
