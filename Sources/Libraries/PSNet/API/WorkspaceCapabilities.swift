import PSCore

// The workspace beyond conversations: drives and their AI agents, an agent's configuration,
// a non-streaming ask, and the credentials on the account. Each is a capability an adapter
// adopts when its API has the routes (see Capabilities.swift).

/// Listing the drives the credential reaches and the AI agents (AI_CHAT pages) in each.
public protocol AgentDirectory: APIAdapter {
    /// Drive records (`id`, `name`, `slug`, ...), as the server lists them.
    func drives() throws -> [JSON]
    /// The agents of one drive: records with `id`, `title`, `aiProvider`, `aiModel`, ...
    func agents(inDrive driveID: String) throws -> [JSON]
}

/// Reading and changing an agent's configuration.
public protocol AgentConfiguring: APIAdapter {
    func agentConfig(_ agentID: String) throws -> AgentConfig
    /// Sends only the fields the change sets; returns the configuration as the server
    /// answers after the change.
    func updateAgentConfig(_ agentID: String, _ change: AgentConfigChange) throws -> JSON
}

/// Making a new agent (an AI_CHAT page) in a drive.
public protocol AgentCreating: APIAdapter {
    /// The new page's record.
    func createAgent(_ new: NewAgent) throws -> JSON
}

/// Asking an agent and getting the whole answer at once (no stream).
public protocol AgentConsulting: APIAdapter {
    func consult(agentID: String, question: String, conversationID: String?) throws -> ConsultAnswer
}

/// The MCP keys on the account: listed (never the secret itself) and revoked.
public protocol KeyManagement: APIAdapter {
    func keys() throws -> [JSON]
    /// Throws `notFound` for a key the user does not have.
    func revokeKey(_ id: String) throws
}

/// The OAuth grants (connected apps) on the account.
public protocol GrantManagement: APIAdapter {
    func grants() throws -> [JSON]
    /// `stepUpToken`: the fresh confirmation the server may ask for (nil: none given).
    func revokeGrant(_ id: String, stepUpToken: String?) throws
}

/// An agent's configuration as the server shows it.
public struct AgentConfig: Sendable {
    /// The whole answer, for the record a command writes.
    public var record: JSON
    public var enabledTools: [String]
    /// The tools the agent may be given (name, description).
    public var availableTools: [(name: String, description: String)]

    public init(record: JSON) {
        self.record = record
        enabledTools = record["enabledTools"]?.arrayValue?.compactMap(\.stringValue) ?? []
        availableTools = (record["availableTools"]?.arrayValue ?? []).compactMap { tool in
            guard let name = tool["name"]?.stringValue else { return nil }
            return (name, tool["description"]?.stringValue ?? "")
        }
    }
}

/// What to change in an agent's configuration; nil leaves a field as it is.
public struct AgentConfigChange: Sendable, Equatable {
    public var systemPrompt: String?
    /// The whole list of enabled tools after the change.
    public var enabledTools: [String]?
    public var provider: String?
    public var model: String?

    public init(systemPrompt: String? = nil, enabledTools: [String]? = nil, provider: String? = nil, model: String? = nil) {
        self.systemPrompt = systemPrompt
        self.enabledTools = enabledTools
        self.provider = provider
        self.model = model
    }

    public var isEmpty: Bool { self == AgentConfigChange() }

    /// The PATCH body: only the fields set.
    public var body: JSON {
        var object = JSONObject()
        object["systemPrompt"] = systemPrompt.map(JSON.string)
        object["enabledTools"] = enabledTools.map { .array($0.map(JSON.string)) }
        object["aiProvider"] = provider.map(JSON.string)
        object["aiModel"] = model.map(JSON.string)
        return .object(object)
    }
}

public struct NewAgent: Sendable {
    public var driveID: String
    public var title: String
    public var systemPrompt: String?

    public init(driveID: String, title: String, systemPrompt: String? = nil) {
        self.driveID = driveID
        self.title = title
        self.systemPrompt = systemPrompt
    }
}

/// A whole answer of an agent.
public struct ConsultAnswer: Sendable {
    public var text: String
    public var conversationID: String?
    /// The server's whole answer.
    public var record: JSON

    public init(text: String, conversationID: String?, record: JSON) {
        self.text = text
        self.conversationID = conversationID
        self.record = record
    }
}
