import Foundation
import Hummingbird
import PSCore

/// The gemini dialect: the Gemini CLI mobile API, packages/mobile-api of
/// github.com/patnir411/gemini-cli (branch claude/ios-app-conversion-TmGG8, 1fabb479), copied
/// route by route; each route names its file and line there (`src/…`). An Express app under
/// `/api/v1` whose every route is behind the Firebase auth middleware (src/server.ts:56-72).
/// Errors are `{error}` JSON; a path no route has gets Express's HTML 404 (ExpressPages).
struct GeminiRoutes {
    let state: ServerState

    static let base = "/api/v1"

    func register(on router: Router<ServerContext>) {
        let store = state.gemini
        let state = self.state

        // src/server.ts:59-65 (no token needed: auth.ts:36-40).
        router.get("/health") { _, _ in
            Reply.json(["status": "healthy", "version": "0.1.0", "uptime": .real(ProcessInfo.processInfo.systemUptime)])
        }

        // src/routes/conversations.ts:26-42 → 201 and the metadata (sessionManager.ts:63-126);
        // title and model as given (not checked); a user with 10 already: 400.
        router.post("\(Self.base)/conversations") { request, _ in
            var request = request
            let sent = try await request.expressJSONBody()
            try GeminiAuth.require(request)
            // `const {title, model} = req.body` inside the try: no body is its TypeError, 400.
            guard let body = sent else {
                throw Refusal(Reply.json(["error": "Cannot destructure property 'title' of 'req.body' as it is undefined."],
                                         status: .badRequest))
            }
            let given = { (key: String) -> JSON? in body[key].flatMap { $0.isNull ? nil : $0 } }
            guard let created = store.create(title: given("title"), model: given("model")) else {
                throw Refusal(Reply.json(["error": .string(
                    "Maximum sessions (\(GeminiConversations.maxPerUser)) reached. Delete an existing conversation first.")],
                    status: .badRequest))
            }
            return Reply.json(created.metadata, status: .created)
        }

        // src/routes/conversations.ts:48-52 → [metadata], newest activity first.
        router.get("\(Self.base)/conversations") { request, _ in
            try GeminiAuth.require(request)
            return Reply.json(.array(store.all().map(\.metadata)))
        }

        // src/routes/conversations.ts:58-70 → {metadata, messages}; none: 404 "Conversation ID not found".
        router.get("\(Self.base)/conversations/:id") { request, context in
            try GeminiAuth.require(request)
            let conversation = try Self.conversation(context, store)
            return Reply.json(["metadata": conversation.metadata, "messages": .array(conversation.messages)])
        }

        // src/routes/conversations.ts:76-85 → 204; none: 404 "Conversation not found"
        // (sessionManager.ts:349-357); the running turn is aborted.
        router.delete("\(Self.base)/conversations/:id") { request, context in
            try GeminiAuth.require(request)
            let id = context.parameters.get("id") ?? ""
            for running in state.streams.find(streamID: nil, messageID: nil, conversationID: id) {
                running.requestAbort()
            }
            guard store.delete(id) else { throw Refusal.notFound("Conversation not found") }
            return Response(status: .noContent)
        }

        // src/routes/conversations.ts:99-155 → 200 and the SSE stream.
        router.post("\(Self.base)/conversations/:id/messages") { request, context in
            var request = request
            let body = try await request.expressJSONBody()
            try GeminiAuth.require(request)
            // `const {content} = req.body` and `content?.trim()` run outside the route's try: no
            // body, or a content that is not a string, null or absent, is a TypeError, 500.
            guard let body else { throw ExpressPages.internalError() }
            if let content = body["content"], !content.isNull, content.stringValue == nil { throw ExpressPages.internalError() }
            return Self.send(body, to: context.parameters.get("id") ?? "", state: state)
        }

        // src/routes/conversations.ts:161-170 → {cancelled: true} (sessionManager.ts:317-322: the
        // AbortController is aborted; the turn's stream then ends with `done`).
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

        // src/routes/settings.ts:28-35: the user's settings, else the defaults.
        router.get("\(Self.base)/settings") { request, _ in
            try GeminiAuth.require(request)
            return Reply.json(.object(store.settings))
        }

        // src/routes/settings.ts:41-51: the body merged into the user's settings, unchecked.
        router.put("\(Self.base)/settings") { request, _ in
            var request = request
            let body = try await request.expressJSONBody()
            try GeminiAuth.require(request)
            var change = body?.objectValue ?? JSONObject()
            if let array = body?.arrayValue {  // `{...array}`: its indices as keys
                for (index, value) in array.enumerated() { change[String(index)] = value }
            }
            return Reply.json(.object(store.changeSettings(change)))
        }
    }

    // MARK: Sending

    /// The SSE route (conversations.ts:99-155): an empty `content` is refused before the
    /// headers (400); after them, the session manager's events (sessionManager.ts:139-243).
    /// A conversation it does not have (deleted, or forgotten after its idle time) throws in
    /// getSession (371-380), which the route writes as `error {code:"INTERNAL_ERROR", message}`
    /// and ends the stream, with no `done`.
    static func send(_ body: JSON, to id: String, state: ServerState) -> Response {
        let store = state.gemini
        guard let content = body["content"]?.stringValue, content.contains(where: { !$0.isWhitespace }) else {
            return Reply.json(["error": "Message content is required"], status: .badRequest)
        }
        let now = Timestamp.now()
        let history = store.conversation(id)?.messages.compactMap { $0["content"]?.stringValue }.joined(separator: "\n") ?? ""
        guard store.begin(id, userMessage: GeminiTurnRecorder.message(role: "user", content: content, createdAt: now)) else {
            return GeminiStream.failed(["code": "INTERNAL_ERROR", "message": .string("Conversation \(id) not found")])
        }
        let events: [JSON]
        if state.faults.takeStatus(path: "\(base)/conversations/\(id)/messages") != nil {
            // A status fault armed for this path is the model's error: sessionManager.ts:303-307
            // writes it with String(event.value), "[object Object]"; the turn then ends.
            events = [
                GeminiEvents.event("error", ["code": "MODEL_ERROR", "message": "[object Object]"]),
                GeminiEvents.event("done", ["fullResponse": "", "usage": ["inputTokens": 0, "outputTokens": 0]]),
            ]
        } else {
            let segments = ReplyScript.reply(to: content, callID: Identifiers.random(prefix: "call_", bytes: 8))
            events = GeminiEvents(inputTokens: OpenAIChunks.tokens(history + "\n" + content), runsTools: state.geminiRunsTools)
                .events(for: segments)
        }
        let generation = ReplyGeneration(
            streamID: Identifiers.random(prefix: "stream_"), messageID: "", conversationID: id)
        let pacing = ReplyGeneration.Pacing(paceMs: state.paceMs, slow: state.faults.takeSlow())
        let drop = state.faults.takeDrop()
        state.streams.add(generation)
        Task { await generation.run(chunks: events, pacing: pacing) { _ in } }
        return GeminiStream.response(generation, keepAliveMs: state.keepAliveMs, drop: drop) { recorder in
            // After the question, even within the same millisecond.
            store.finish(id, assistantMessage: recorder.message(createdAt: max(Timestamp.now(), now + 1)))
            state.streams.remove(generation)
        }
    }

    // MARK: Helpers

    /// getSession (sessionManager.ts:371-380): 404 `{"error":"Conversation ID not found"}`.
    private static func conversation(_ context: ServerContext, _ store: GeminiConversations) throws
        -> GeminiConversations.Conversation
    {
        let id = context.parameters.get("id") ?? ""
        guard let conversation = store.conversation(id) else { throw Refusal.notFound("Conversation \(id) not found") }
        return conversation
    }
}
