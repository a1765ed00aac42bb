import PSCore

/// Saving the user's own API key for an AI provider on the server (`ps-settings
/// --api-key-stdin`). The key is sent in the request body only and never written anywhere.
public protocol ProviderKeySaving: APIAdapter {
    /// The server's answer (which does not contain the key).
    func saveProviderKey(provider: String, key: String) throws -> JSON
}
