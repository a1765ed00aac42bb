import PSCore

/// Renaming and deleting Global assistant conversations, current API only (the legacy one
/// has neither): `PATCH /api/ai/global/{id} {title}` answers the conversation,
/// `DELETE /api/ai/global/{id}` answers `{success:true}`; both 404 `Conversation not found`
/// for one the user does not have, session tokens only (apps/web/src/app/api/ai/global/[id]/route.ts).
extension PageSpaceAdapter: ConversationRenaming, ConversationDeleting {
    public func renameConversation(_ id: String, title: String) throws -> JSON {
        try notFoundSaid(id) {
            try client.json(client.request("PATCH", "/api/ai/global/\(URLText.encodeComponent(id))", body: ["title": .string(title)]))
        }
    }

    public func deleteConversation(_ id: String) throws {
        _ = try notFoundSaid(id) {
            try client.json(client.request("DELETE", "/api/ai/global/\(URLText.encodeComponent(id))"))
        }
    }

    private func notFoundSaid(_ id: String, _ body: () throws -> JSON) throws -> JSON {
        do {
            return try body()
        } catch let error as ToolError where error.status == .notFound {
            throw ToolError(.notFound, "there is no global conversation \(TerminalSafeText.quoted(id)) "
                + "for this user (ps-history --list shows them)")
        }
    }
}
