import PSCore

/// Which drive a conversation made through PageSpace's `/api/v1` goes in. A drive-scoped MCP
/// key (what `ps-auth login --device --drive` gives) reaches only the conversations whose
/// context is one of its drives (apps/web/src/app/api/v1/conversations/[id]/route.ts:31-36):
/// one made with no drive is lost to it after the first send. So a new conversation names a
/// drive (`drive_id`, buildCreateConversationPayload): the agent's own when `--page` names
/// one, else the first the key lists. `GET /api/drives` lists exactly a scoped key's drives
/// (apps/web/src/app/api/drives/route.ts:83-95); for an unscoped key any drive of the user's
/// does as well as none. nil when the server lists none (or has no such route).
struct ConversationDrive {
    let client: APIClient

    func drive(forAgent pageID: String?) throws -> String? {
        let drives = try listed("/api/drives").compactMap { $0["id"]?.stringValue }
        guard let first = drives.first else { return nil }
        guard let pageID, drives.count > 1 else { return first }
        for drive in drives {
            let answer = try listed("/api/drives/\(URLText.encodeComponent(drive))/agents", key: "agents")
            if answer.contains(where: { $0["id"]?.stringValue == pageID }) { return drive }
        }
        return first
    }

    /// `path` on the server's origin (the base URL without its `/api/v1`): an array, or the
    /// array under `key`; empty when the route is missing or refuses this key.
    private func listed(_ path: String, key: String? = nil) throws -> [JSON] {
        var request = client.request("GET", "")
        request.url = Self.origin(of: client.session.server) + path
        do {
            let answer = try client.json(request)
            return (key.map { answer[$0] } ?? answer)?.arrayValue ?? []
        } catch let error as ToolError where error.status == .notFound || error.status == .forbidden {
            return []
        }
    }

    /// `https://host/api/v1` → `https://host`.
    static func origin(of baseURL: String) -> String {
        var base = Session.normalise(baseURL)
        if base.hasSuffix("/api/v1") { base.removeLast(7) }
        return base
    }
}
