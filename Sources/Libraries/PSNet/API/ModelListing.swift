import PSCore

/// Listing the models a server offers (`ps-models`). An adapter adopts it when its API can say;
/// `ps-models` asks for it with `Capabilities.require` and exits 2 elsewhere.
public protocol ModelListing: APIAdapter {
    /// The models, in the server's order.
    func listModels() throws -> [ModelInfo]
}

/// One model as a server lists it (OpenAI's `{id, object:"model", created, owned_by}`).
public struct ModelInfo: Sendable, Equatable {
    public var id: String
    public var ownedBy: String?
    /// When the model was made, in seconds since 1970, when the server says.
    public var created: Int64?
    /// A name for people, when the server gives one besides the id.
    public var name: String?
    /// Whether the free plan may run it, when the server says (PageSpace's catalog).
    public var free: Bool?
    /// How many tokens it reads at most, when the server says.
    public var contextWindow: Int64?

    public init(id: String, ownedBy: String? = nil, created: Int64? = nil, name: String? = nil,
                free: Bool? = nil, contextWindow: Int64? = nil) {
        self.id = id
        self.ownedBy = ownedBy
        self.created = created
        self.name = name
        self.free = free
        self.contextWindow = contextWindow
    }

    /// Reads one entry of an OpenAI `data` array; nil when it has no string id.
    public init?(openAI entry: JSON) {
        guard let id = entry["id"]?.stringValue, !id.isEmpty else { return nil }
        self.init(id: id, ownedBy: entry["owned_by"]?.stringValue, created: entry["created"]?.intValue)
    }

    /// The record `ps-models` writes: `{id, ownedBy?, created?, name?, free?, contextWindow?}`.
    public var record: JSON {
        var object = JSONObject()
        object["id"] = .string(id)
        object["ownedBy"] = ownedBy.map(JSON.string)
        object["created"] = created.map(JSON.integer)
        object["name"] = name.map(JSON.string)
        object["free"] = free.map(JSON.bool)
        object["contextWindow"] = contextWindow.map(JSON.integer)
        return .object(object)
    }
}
