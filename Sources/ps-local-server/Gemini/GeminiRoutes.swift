import Hummingbird
import PSCore

/// The gemini dialect: the Gemini CLI mobile API (packages/mobile-api in its design document),
/// an Express app under `/api/v1` whose every route is behind the Firebase auth middleware.
/// Errors are `{error}` JSON; a path no route has gets Express's HTML 404 (ExpressPages). The
/// document gives the routes' answers; where it is silent, Express's defaults decide.
struct GeminiRoutes {
    let state: ServerState

    static let base = "/api/v1"

    func register(on router: Router<ServerContext>) {
        let store = state.gemini
        let state = self.state

        // POST /conversations {title?, model?, workspacePath?} → {id, title, createdAt, model}
        // (part 1.2 of the design; SessionManager.createConversation, 1.4: title "New Chat" by default).
        router.post("\(Self.base)/conversations") { request, _ in
            var request = request
            let body = try await request.expressJSONBody()
            try GeminiAuth.require(request)
            let title = try Self.optionalString(body, "title")
            let model = try Self.optionalString(body, "model")
            let workspacePath = try Self.optionalString(body, "workspacePath")
            let created = store.create(title: title, model: model, workspacePath: workspacePath)
            return Reply.json([
                "id": .string(created.id), "title": .string(created.title),
                "createdAt": .string(Timestamp.iso8601(created.createdAt)), "model": .string(created.model),
            ])
        }

        // GET /conversations → [{id, title, createdAt, lastMessageAt, messageCount, summary}] (part 1.2).
        router.get("\(Self.base)/conversations") { request, _ in
            try GeminiAuth.require(request)
            return Reply.json(.array(store.all().map(\.listRecord)))
        }

        // GET /conversations/:id → {id, title, messages, model, createdAt} (part 1.2; messages in
        // the app's Message shape, 3.2). The document gives no answer for an unknown id: 404.
        router.get("\(Self.base)/conversations/:id") { request, context in
            try GeminiAuth.require(request)
            return Reply.json(try Self.conversation(context, store).fullRecord)
        }

        // DELETE /conversations/:id → 204 (part 1.2); an unknown id: 404, as for GET.
        router.delete("\(Self.base)/conversations/:id") { request, context in
            try GeminiAuth.require(request)
            let conversation = try Self.conversation(context, store)
            for running in state.streams.find(streamID: nil, messageID: nil, conversationID: conversation.id) {
                running.requestAbort()
            }
            _ = store.delete(conversation.id)
            return Response(status: .noContent)
        }

        // POST /conversations/:id/messages {content} → 200 and the SSE stream (parts 1.2 and 1.5).
        router.post("\(Self.base)/conversations/:id/messages") { request, context in
            var request = request
            let body = try await request.expressJSONBody()
            try GeminiAuth.require(request)
            return Self.send(body, to: context.parameters.get("id") ?? "", state: state)
        }

        // POST /conversations/:id/cancel → 200 {cancelled: true} (parts 1.2 and 1.4: the session's
        // AbortController is aborted, so the running stream ends with an error event).
        router.post("\(Self.base)/conversations/:id/cancel") { request, context in
            var request = request
            _ = try await request.expressJSONBody()
            try GeminiAuth.require(request)
            let conversation = try Self.conversation(context, store)
            for running in state.streams.find(streamID: nil, messageID: nil, conversationID: conversation.id) {
                running.requestAbort()
            }
            return Reply.json(["cancelled": true])
        }

        // GET /settings → {model, approvalMode, ...} (part 1.2; AppSettings in 3.7).
        router.get("\(Self.base)/settings") { request, _ in
            try GeminiAuth.require(request)
            return Reply.json(.object(store.settings))
        }

        // PUT /settings {model?, approvalMode?, ...} → 200 with the settings (part 1.2; the app
        // decodes AppSettings from the answer, 3.7). approvalMode is one of the Gemini CLI's.
        router.put("\(Self.base)/settings") { request, _ in
            var request = request
            let body = try await request.expressJSONBody()
            try GeminiAuth.require(request)
            return Reply.json(.object(store.changeSettings(try Self.settingsChange(body))))
        }
    }

    // MARK: Sending

    /// The SSE route: headers first, then the session manager's events. An unknown conversation
    /// is the session manager's "Session not found", thrown after the headers: an error event.
    static func send(_ body: JSON, to id: String, state: ServerState) -> Response {
        let store = state.gemini
        guard let conversation = store.conversation(id) else {
            return GeminiStream.failed(["message": "Session not found"])
        }
        guard let content = body["content"]?.stringValue, !content.isEmpty else {
            return GeminiStream.failed(["message": "content must be a non-empty string"])
        }
        // A status fault armed for this path is the model's error, reported in the stream.
        if let fault = state.faults.takeStatus(path: "\(base)/conversations/\(id)/messages") {
            return GeminiStream.failed(modelError(fault.status))
        }
        let now = Timestamp.now()
        let question = GeminiTurnRecorder.message(role: "user", content: content, createdAt: now)
        let history = conversation.messages.compactMap { $0["content"]?.stringValue }.joined(separator: "\n")
        store.append([question], to: id)

        let segments = ReplyScript.reply(to: content, callID: Identifiers.random(prefix: "call_", bytes: 8))
        let events = GeminiEvents(inputTokens: OpenAIChunks.tokens(history + "\n" + content)).events(for: segments)
        let generation = ReplyGeneration(
            streamID: Identifiers.random(prefix: "stream_"), messageID: "", conversationID: id)
        let pacing = ReplyGeneration.Pacing(paceMs: state.paceMs, slow: state.faults.takeSlow())
        let drop = state.faults.takeDrop()
        state.streams.add(generation)
        Task { await generation.run(chunks: events, pacing: pacing) { _ in } }
        return GeminiStream.response(generation, keepAliveMs: state.keepAliveMs, drop: drop) { recorder in
            // After the question, even within the same millisecond.
            store.append(recorder.messages(createdAt: max(Timestamp.now(), now + 1)), to: id)
            state.streams.remove(generation)
        }
    }

    /// The model's failures as the Gemini API names them (`RATE_LIMITED` as the design's example).
    static func modelError(_ status: Int) -> JSON {
        let (code, message): (String, String)
        switch status {
        case 429: (code, message) = ("RATE_LIMITED", "Quota exceeded for the Gemini API: too many requests; retry later")
        case 401: (code, message) = ("UNAUTHENTICATED", "The server's Gemini API key was refused")
        case 402, 403: (code, message) = ("PERMISSION_DENIED", "The server's Gemini API key may not use this model")
        case 404: (code, message) = ("NOT_FOUND", "The conversation's model is not found")
        case 503: (code, message) = ("UNAVAILABLE", "The model is overloaded. Please try again later.")
        default: (code, message) = ("INTERNAL", "An internal error has occurred. Please retry.")
        }
        return ["code": .string(code), "message": .string(message)]
    }

    // MARK: Helpers

    private static func conversation(_ context: ServerContext, _ store: GeminiConversations) throws
        -> GeminiConversations.Conversation
    {
        guard let conversation = store.conversation(context.parameters.get("id") ?? "") else {
            throw Refusal.notFound("Conversation not found")
        }
        return conversation
    }

    private static func optionalString(_ body: JSON, _ key: String) throws -> String? {
        guard let value = body[key], value != .null else { return nil }
        guard let text = value.stringValue else { throw Refusal.badRequest("\(key) must be a string") }
        return text
    }

    /// The body's keys, checked: model a string, approvalMode one of the CLI's modes.
    static func settingsChange(_ body: JSON) throws -> JSONObject {
        guard var change = body.objectValue else { throw Refusal.badRequest("settings must be a JSON object") }
        if let model = change["model"], model.stringValue?.isEmpty != false {
            throw Refusal.badRequest("model must be a non-empty string")
        }
        if let mode = change["approvalMode"] {
            let given = mode.stringValue ?? mode.serialized()
            let normalised = given == "auto_edit" ? "autoEdit" : given
            guard mode.stringValue != nil, GeminiConversations.approvalModes.contains(normalised) else {
                throw Refusal.badRequest(
                    "Invalid approvalMode \(given): expected one of \(GeminiConversations.approvalModes.joined(separator: ", "))")
            }
            change["approvalMode"] = .string(normalised)
        }
        return change
    }
}
