import Hummingbird
import PSCore

/// The current server's OpenAI-compatible agent API: `GET /api/v1/models` and
/// `POST /api/v1/chat/completions`, MCP keys only. `model` is `ps-agent://<pageId>` of an
/// AI_CHAT page; `conversation_id` makes the exchange durable in that conversation (without
/// it nothing is kept, and the server loads the conversation's history itself, taking only the
/// request's last message), `client_manages_history` lets it name a conversation that does not
/// exist yet and makes the request's messages the whole history.
struct AgentCompletionRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        let auth = state.authenticator

        // apps/web/src/app/api/v1/models/route.ts:23-41: every AI_CHAT page of the pages table
        // (those made by POST /api/pages too), in the key's drives when it is scoped, with
        // its own createdAt.
        router.get("/api/v1/models") { request, _ in
            let drives = Authenticator.allowedDrives(try auth.require(request, scope: .mcpOnly))
            let models: [JSON] = state.agents.agents(inDrives: drives).map { page in
                [
                    "id": .string(InferenceRequest.agentModelPrefix + page.id), "object": "model",
                    "created": .integer(page.createdAt / Timestamp.second), "owned_by": "pagespace",
                ]
            }
            return Reply.json(["object": "list", "data": .array(models)])
        }

        // Follows apps/web/src/app/api/v1/chat/completions/route.ts
        router.post("/api/v1/chat/completions") { request, _ in
            let credential = try auth.require(request, scope: .mcpOnly)
            var request = request
            guard let body = try await request.jsonBodyIfValid() else { throw Refusal.badRequest("Invalid JSON body") }
            var inference = try InferenceRequest(body)
            // route.ts:98-103: the key's drive scope, then (:105-109) any AI_CHAT page.
            try DriveScope.checkPage(credential, inference.pageID, in: state.agents)
            guard let agent = state.agents.page(inference.pageID), agent.type == "AI_CHAT" else {
                throw Refusal.notFound("Agent not found")
            }
            // The conversation (route.ts:153-199, a client-managed one made here), then the
            // admin-only provider and the credit gate (:226-257).
            let conversationID = try conversation(for: inference)
            try ChatAdmission.admitAgentRun(agent, userFallback: true, state: state)
            // A kept conversation: the stored history and the request's last message only.
            if let conversationID, !inference.clientManagesHistory {
                inference = inference.threaded(history: state.store.conversation(conversationID)?.messages ?? [])
            }
            if let conversationID, inference.clientManagesHistory { backFillToolResults(inference, conversationID: conversationID) }
            let askedAt = Timestamp.now()
            if let conversationID, let last = inference.messages.last, last.role == "user" {
                state.store.append(
                    StoredMessage(id: last.id ?? state.ids.nextMessageID(), role: "user", parts: last.parts, createdAt: askedAt),
                    to: conversationID)
            }
            return stream(inference, conversationID: conversationID, askedAt: askedAt)
        }
    }

    /// The conversation the exchange is kept in, or nil for a stateless call. An unknown id
    /// is a 404, unless the client manages the history: then it is created (a page
    /// conversation of the agent). A client thread is stamped with its agent on first use.
    private func conversation(for inference: InferenceRequest) throws -> String? {
        guard let id = inference.conversationID else { return nil }
        if inference.clientManagesHistory {
            if state.store.conversation(id) == nil {
                state.store.insert(Conversation(
                    id: id, title: "", kind: .agent(pageID: inference.pageID), createdAt: Timestamp.now()))
            }
            return id
        }
        guard let existing = state.store.conversation(id) else { throw Refusal.notFound("Conversation not found") }
        if case .client = existing.kind, existing.agentPageID == nil {
            state.store.update(id) { $0.agentPageID = inference.pageID }
        }
        return id
    }

    /// route.ts:432-473: with client_manages_history, the tool results the request carries in
    /// the messages before its last (role:tool collapsed into the calls' parts; those of the last
    /// message are not looked at, :439) are written into the stored replies whose calls have the
    /// same toolCallId (updateMessageToolResults).
    private func backFillToolResults(_ inference: InferenceRequest, conversationID: String) {
        var results: [String: JSON] = [:]
        for message in inference.messages.dropLast() where message.role == "assistant" {
            for part in message.parts {
                guard let id = part["toolCallId"]?.stringValue,
                      ["output-available", "output-error"].contains(part["state"]?.stringValue ?? "") else { continue }
                results[id] = part
            }
        }
        guard !results.isEmpty, let stored = state.store.conversation(conversationID)?.messages else { return }
        for message in stored where message.role == "assistant" {
            var changed = false
            let parts = message.parts.map { part -> JSON in
                guard let id = part["toolCallId"]?.stringValue, let result = results[id], part["output"] == nil,
                      case .object(var filled) = part else { return part }
                changed = true
                filled["state"] = result["state"]
                filled["output"] = result["output"]
                filled["errorText"] = result["errorText"]
                return .object(filled)
            }
            if changed {
                state.store.append(
                    StoredMessage(id: message.id, role: message.role, parts: parts, createdAt: message.createdAt), to: conversationID)
            }
        }
    }

    private func stream(_ inference: InferenceRequest, conversationID: String?, askedAt: Int64) -> Response {
        var segments = ReplyScript.reply(
            to: inference.question, instructions: inference.systemText,
            callID: Identifiers.random(prefix: "call_", bytes: 8))
        // disable_server_tools without client tools: the model has no tools at all.
        if inference.disableServerTools {
            segments = segments.filter { if case .tool = $0 { return false } else { return true } }
        }
        // With the caller's tools (route.ts:84-95, tools without execute), a message that names
        // them (ToolScript) gets their calls, left open for the caller, one step per request.
        if !inference.clientToolNames.isEmpty, let steps = ToolScript.steps(in: inference.question) {
            segments = ToolScript.reply(steps: steps, stepsDone: inference.toolStepsDone, results: inference.toolResults) {
                Identifiers.random(prefix: "call_", bytes: 8)
            }
        }
        let generation = ReplyGeneration(
            streamID: Identifiers.random(prefix: "stream_"), messageID: state.ids.nextMessageID(),
            conversationID: conversationID ?? "")
        let chunks = ChunkScript.chunks(for: segments, messageID: generation.messageID, dialect: .pagespace)
        let pacing = ReplyGeneration.Pacing(paceMs: state.paceMs, slow: state.faults.takeSlow())
        let drop = state.faults.takeDrop()
        let store = state.store
        Task {
            await generation.run(chunks: chunks, pacing: pacing) { parts in
                // The route keeps the text and the tool calls and results, not the reasoning.
                let kept = parts.filter { $0["type"]?.stringValue != "reasoning" }
                guard let conversationID, !kept.isEmpty else { return }
                // After the question, even within the same millisecond.
                let reply = StoredMessage(
                    id: generation.messageID, role: "assistant", parts: kept, createdAt: max(Timestamp.now(), askedAt + 1))
                store.append(reply, to: conversationID)
            }
        }
        let adapter = PageSpaceChunkAdapter(
            id: "chatcmpl-" + Identifiers.cuid(), model: inference.model, created: Timestamp.now() / Timestamp.second,
            clientToolNames: Set(inference.clientToolNames))
        return CompletionStream.response(generation, mapper: adapter, drop: drop)
    }
}
