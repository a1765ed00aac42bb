import Hummingbird
import PSCore

/// The late-2025 Global assistant: `/api/ai_conversations/*` (JWT, CSRF on POST).
struct LegacyConversationRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        let history = HistoryResponder(state: state)
        let auth = state.authenticator

        router.get("/api/ai_conversations/global") { request, _ in
            _ = try auth.require(request, scope: .sessionOrMCP)
            guard let conversation = state.store.conversation(SeedData.globalConversationID) else {
                throw Refusal.notFound("Conversation not found")
            }
            return Reply.json(conversation.summary)
        }
        router.get("/api/ai_conversations/:id/messages") { request, context in
            _ = try auth.require(request, scope: .sessionOrMCP)
            return try await history.page(of: context.parameters.get("id") ?? "", request: request, context: context)
        }
        router.post("/api/ai_conversations/:id/messages") { request, context in
            _ = try auth.require(request, scope: .sessionOrMCP)
            guard let id = context.parameters.get("id"), let conversation = state.store.conversation(id),
                conversation.kind == .global
            else { throw Refusal.notFound("Conversation not found") }
            var request = request
            let body = try await request.jsonBody()
            return try ReplyStreamer.respond(to: body, conversationID: conversation.id, state: state)
        }
    }
}
