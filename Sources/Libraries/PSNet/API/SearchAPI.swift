import PSCore

/// Searching what the user can see on the server (`ps-search`). An adapter adopts it when its
/// API has a search route; `ps-search` asks for it with `Capabilities.require` and exits 2
/// elsewhere (searching an exported file needs no server at all).
public protocol SearchAPI: APIAdapter {
    /// The server's results for `query`, best first, as the server describes them; at most
    /// `limit` when given. No match is an empty array, not an error.
    func search(_ query: String, limit: Int?) throws -> [JSON]
}
