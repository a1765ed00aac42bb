import PSCore

/// Editing, deleting and undoing stored messages on the current API:
/// `PATCH|DELETE /api/ai/global/{id}/messages/{messageId}` (session tokens),
/// `PATCH|DELETE /api/ai/chat/messages/{messageId}` (Page AI; session tokens and MCP keys),
/// `GET|POST /api/ai/chat/messages/{messageId}/undo`.
extension PageSpaceAdapter: MessageEditing, MessageUndoing {
    public func editMessage(_ messageID: String, in source: HistorySource, content: String) throws {
        _ = try client.json(client.request("PATCH", messagePath(messageID, in: source), body: ["content": .string(content)]))
    }

    public func deleteMessage(_ messageID: String, in source: HistorySource) throws {
        _ = try client.json(client.request("DELETE", messagePath(messageID, in: source)))
    }

    public func undoPreview(_ messageID: String) throws -> JSON {
        try client.get(undoPath(messageID))
    }

    public func undo(_ messageID: String, withChanges: Bool) throws -> JSON {
        try client.post(undoPath(messageID), body: ["mode": withChanges ? "messages_and_changes" : "messages_only"])
    }

    private func messagePath(_ messageID: String, in source: HistorySource) -> String {
        switch source {
        case .global(let id):
            return "/api/ai/global/\(URLText.encodeComponent(id))/messages/\(URLText.encodeComponent(messageID))"
        case .agent:
            return "/api/ai/chat/messages/" + URLText.encodeComponent(messageID)
        }
    }

    private func undoPath(_ messageID: String) -> String {
        "/api/ai/chat/messages/\(URLText.encodeComponent(messageID))/undo"
    }
}
