import PSCore

/// What a command asks of a server, whatever API it speaks. One implementation per API kind;
/// commands only ever talk to this protocol.
public protocol APIAdapter: AnyObject {
    var kind: APIKind { get }
    var client: APIClient { get }

    /// Password login, for APIs that have one.
    func login(email: String, password: String) throws -> LoginResult
    /// Login without a credential, for APIs that need none (`ps-auth login` with no
    /// --with-token, --email or --device): registers the user where the API has users,
    /// or only checks that the server answers.
    func openLogin(_ account: AccountDetails) throws -> LoginResult
    /// What the credential reaches (the user, when the server says), asking only routes that
    /// this kind of credential may use. Also proves that the credential works.
    func reach() throws -> CredentialReach
    /// Tells the server to end the session, where the API has a way to; returns what the
    /// user should know when it has none (the credential then stays valid on the server).
    func logout() throws -> String?
    /// The conversation a message goes to when none is named; with `creating`, one is made
    /// (with those details) when the user has none (nil then only when the API cannot make one).
    func defaultConversationID(creating new: NewConversation?) throws -> String?
    /// Throws `notFound` when the user has no such global conversation (its history and a
    /// send would otherwise answer as if it were merely empty, or make it anew).
    func requireConversation(_ id: String) throws
    /// Starts a new global conversation; nil when the API has no way to.
    func createConversation(_ new: NewConversation) throws -> String?
    /// The conversation a message to Page AI agent `pageID` goes to when none is named (a new
    /// one). By default an id made here, which the server takes as the new conversation's.
    func newAgentConversationID(pageID: String, creating new: NewConversation) throws -> String
    /// Calls `body` with each global conversation record.
    func listConversations(_ body: (JSON) throws -> Void) throws
    /// Whether the API can list a Page AI agent's conversations (then a page's history is
    /// exported conversation by conversation, never interleaved).
    var listsAgentConversations: Bool { get }
    /// Calls `body` with each conversation record of a Page AI agent.
    func listAgentConversations(agentID: String, _ body: (JSON) throws -> Void) throws
    /// One page of a conversation's messages.
    func historyPage(_ source: HistorySource, query: HistoryQuery) throws -> HistoryPage
    /// Refuses (usage) a message's text that the server would refuse for its length, before
    /// anything is sent or made for it (a new conversation).
    func checkMessage(_ text: String) throws
    /// The request that sends `message` and answers with a stream.
    func sendRequest(_ target: SendTarget, message: JSON, options: SendOptions) throws -> HTTPRequest
    /// Asks the server to stop a turn that is being generated (it goes on otherwise: the
    /// server generates whether or not the client still listens). The conversation names it
    /// even before the stream id is known.
    func abort(streamID: String?, conversationID: String?) throws -> AbortOutcome
    /// After a send: keeps the turn where the client keeps the conversation (the server keeps
    /// none); `reply` is the assistant's message rebuilt from the stream, nil when none came.
    func keepTurn(_ target: SendTarget, message: JSON, reply: JSON?) throws
    /// Whether `keepTurn` keeps anything (then the reply is rebuilt from the stream).
    var keepsTurns: Bool { get }
    /// How the API pages a conversation's history (`historyPage` takes that kind of query).
    var historyPaging: HistoryPaging { get }
    /// Whether the answer to `sendRequest` is one JSON document rather than a stream; then
    /// `streamRecords(fromAnswer:)` turns it into the stream a streaming server would send.
    var answersWhole: Bool { get }
    /// For an API that answers whole: the answer as UI message stream SSE bytes.
    func streamRecords(fromAnswer answer: JSON, target: SendTarget) throws -> WholeAnswer
    /// Whether a sent message's file parts (images) reach the model; where they would be
    /// dropped, `ps-send --attach IMAGE` is refused before sending.
    var takesFileParts: Bool { get }
    /// Whether `SendOptions.responseSchema` goes to the server natively (OpenAI's
    /// `response_format`); elsewhere the schema is asked for in words after the message.
    var takesResponseSchema: Bool { get }
}

extension APIAdapter {
    public func openLogin(_ account: AccountDetails) throws -> LoginResult {
        throw ToolError(.usage, "the \(kind.rawValue) API needs a credential: give one of --device, --with-token or --email")
    }
    public func keepTurn(_ target: SendTarget, message: JSON, reply: JSON?) throws {}
    public func checkMessage(_ text: String) throws {}
    public func newAgentConversationID(pageID: String, creating new: NewConversation) throws -> String {
        RandomID.conversationID()
    }
    public var keepsTurns: Bool { false }
    public var historyPaging: HistoryPaging { .newestFirstCursor }
    public var answersWhole: Bool { false }
    public var takesFileParts: Bool { false }
    public var takesResponseSchema: Bool { false }
    public func streamRecords(fromAnswer answer: JSON, target: SendTarget) throws -> WholeAnswer {
        throw ToolError(.failure, "the \(kind.rawValue) API streams its answers")
    }
}

/// How an API pages a conversation's messages.
public enum HistoryPaging: Sendable, Equatable {
    /// PageSpace: a cursor only filters and the server answers with the newest `limit`
    /// matching messages (walked backwards, see `HistoryExporter`).
    case newestFirstCursor
    /// `limit` and `offset` counted from the oldest message (walked forwards).
    case oldestFirstOffset
}

public struct LoginResult: Sendable {
    /// nil for an API that needs none.
    public var credentials: Credentials?
    public var user: JSON?

    public init(credentials: Credentials?, user: JSON?) {
        self.credentials = credentials
        self.user = user
    }
}

/// Who the user is, for an API that registers users without a credential (`ps-auth login
/// --user-name … --user-email … --timezone …`); every field is optional.
public struct AccountDetails: Sendable {
    public var name: String?
    public var email: String?
    public var timezone: String?

    public init(name: String? = nil, email: String? = nil, timezone: String? = nil) {
        self.name = name
        self.email = email
        self.timezone = timezone
    }
}

/// What a new conversation starts with, where the API takes it at creation: a title (the
/// first message, cut short, when the user gives none) and a model.
public struct NewConversation: Sendable, Equatable {
    public var title: String?
    public var model: String?

    public init(title: String? = nil, model: String? = nil) {
        self.title = title
        self.model = model
    }

    /// A title made from a first message: its first line, at most 60 characters.
    public static func title(fromMessage text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let trimmed = String(line.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        return trimmed.count > 60 ? String(trimmed.prefix(59)) + "…" : trimmed
    }
}

/// Whose messages to read.
public enum HistorySource: Sendable, Equatable {
    /// A Global assistant conversation.
    case global(conversationID: String)
    /// A Page AI agent's conversation; nil = the page's default history.
    case agent(pageID: String, conversationID: String?)

    /// A stable key for the export state file.
    public var stateKey: String {
        switch self {
        case .global(let id): return "global:" + id
        case .agent(let page, let conversation): return "page:" + page + ":" + (conversation ?? "")
        }
    }

    /// The conversation it names; nil for a page's default history.
    public var conversationID: String? {
        switch self {
        case .global(let id): return id
        case .agent(_, let id): return id
        }
    }
}

public enum HistoryDirection: String, Sendable, CaseIterable {
    case before, after
}

public struct HistoryQuery: Sendable, Equatable {
    public var limit: Int?
    public var cursor: String?
    public var direction: HistoryDirection?
    /// How many messages to skip from the oldest (`HistoryPaging.oldestFirstOffset`).
    public var offset: Int?

    public init(limit: Int? = nil, cursor: String? = nil, direction: HistoryDirection? = nil, offset: Int? = nil) {
        self.limit = limit
        self.cursor = cursor
        self.direction = direction
        self.offset = offset
    }
}

/// One page of messages, oldest first. `isPaged` is false when the endpoint returns the whole
/// history at once (Page AI's bare array), and then `hasMore` is false.
public struct HistoryPage: Sendable {
    public var messages: [JSON]
    public var hasMore: Bool
    public var nextCursor: String?
    public var isPaged: Bool
    /// The conversation's revision counter when the page was read (the current server says).
    public var rev: Int64?

    public init(messages: [JSON], hasMore: Bool, nextCursor: String?, isPaged: Bool, rev: Int64? = nil) {
        self.messages = messages
        self.hasMore = hasMore
        self.nextCursor = nextCursor
        self.isPaged = isPaged
        self.rev = rev
    }

    /// Reads `{messages, pagination:{hasMore,nextCursor}}` or a bare array.
    public static func parse(_ json: JSON) throws -> HistoryPage {
        if let array = json.arrayValue {
            return HistoryPage(messages: array, hasMore: false, nextCursor: nil, isPaged: false)
        }
        guard let messages = json["messages"]?.arrayValue else {
            throw ToolError(.serverError, "the server's history answer has no messages array")
        }
        let pagination = json["pagination"]
        return HistoryPage(
            messages: messages, hasMore: pagination?["hasMore"]?.boolValue ?? false,
            nextCursor: pagination?["nextCursor"]?.stringValue, isPaged: true, rev: json["rev"]?.intValue)
    }
}

/// Where a message goes.
public enum SendTarget: Sendable, Equatable {
    case global(conversationID: String)
    case agent(pageID: String, conversationID: String?)
}

/// Where the user is when they ask: the page or drive the assistant should take as context.
/// The current API takes it as `contextRef {routeType, pageId?, driveId?}` and resolves
/// (and permission-checks) it itself; the legacy one took `pageContext`/`locationContext`.
public enum SendLocation: Sendable, Equatable {
    case page(pageID: String, driveID: String?)
    case drive(driveID: String)
}

public struct SendOptions: Sendable {
    public var provider: String?
    public var model: String?
    public var location: SendLocation?
    /// A system prompt, where the API takes one with the message (OpenAI-compatible servers).
    public var system: String?
    /// The current API's per-run browser session id.
    public var browserSessionID: String
    /// A JSON Schema the answer must match, where the adapter `takesResponseSchema`.
    public var responseSchema: JSON?

    public init(provider: String? = nil, model: String? = nil, location: SendLocation? = nil,
                browserSessionID: String = RandomID.browserSessionID()) {
        self.provider = provider
        self.model = model
        self.location = location
        self.browserSessionID = browserSessionID
    }
}

/// A user message as UIMessage, with a client-made id: its text part first, then its file
/// parts (`{type:"file", mediaType, filename, url}`, see `ImageAttachment`).
public enum UserMessage {
    public static func make(text: String, files: [JSON] = [], id: String = RandomID.messageID()) -> JSON {
        ["id": .string(id), "role": "user", "parts": .array([["type": "text", "text": .string(text)]] + files)]
    }
}

/// What the server said of an abort.
public enum AbortOutcome: Equatable, Sendable {
    case stopped
    /// `{aborted:false, code, reason}`: nothing stopped (nothing in flight, or unconfirmed).
    case notStopped(code: String?, reason: String?)
    /// This API, or this kind of credential, has no way to stop a turn.
    case unsupported(String)
}

/// A session with the adapter for its server's API.
public struct APIConnection {
    public var session: Session
    public var adapter: APIAdapter
}

public enum APIAdapters {
    public static func make(_ kind: APIKind, client: APIClient) -> APIAdapter {
        switch kind {
        case .pagespace: return PageSpaceAdapter(client: client)
        case .pagespaceLegacy: return PageSpaceLegacyAdapter(client: client)
        case .openai: return OpenAIAdapter(client: client)
        case .lucid: return LucidAdapter(client: client)
        case .gemini: return GeminiAdapter(client: client)
        }
    }
}
