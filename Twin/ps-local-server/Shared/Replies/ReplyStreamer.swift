import HTTPTypes
import Hummingbird
import PSCore

/// Answers a send: stores the user's message, starts generating the reply and returns the
/// UI message stream. Both dialects and both assistants (Global, Page AI) come through here.
enum ReplyStreamer {
    static func respond(
        to body: JSON, conversationID: String, state: ServerState, extraHeaders: HTTPFields = [:], global: Bool = false
    ) throws -> Response {
        let segments: [ReplySegment], askedAt: Int64
        let callID = Identifiers.random(prefix: "call_", bytes: 8)
        if state.dialect == .pagespace, let last = body["messages"]?.arrayValue?.last, last["role"]?.stringValue == "assistant" {
            // A resume (global-chat-turn.ts:608-622, page-chat-turn.ts:1021-1036): the client
            // answered an ask_user question; no new message is stored, the answer is merged
            // into the stored one and the turn goes on.
            guard state.store.conversation(conversationID) != nil else { throw Refusal.notFound("Conversation not found") }
            let merged = AskUser.merge(AskUser.results(in: last), into: last["id"]?.stringValue, conversationID: conversationID, store: state.store)
            try ChatAdmission.admit(body, pageID: global ? nil : body["chatId"]?.stringValue, state: state)
            segments = ReplyScript.withControlCalls([.text(AskUser.continuation(merged))], global: global)
            askedAt = Timestamp.now()
        } else {
            let userMessage = try userMessage(from: body, state: state)
            guard state.store.append(userMessage, to: conversationID) else {
                throw Refusal.notFound("Conversation not found")
            }
            askedAt = userMessage.createdAt
            if state.dialect == .pagespace {
                try ChatAdmission.admit(body, pageID: global ? nil : body["chatId"]?.stringValue, state: state)
                // An untitled Global conversation is named after its first message
                // (global-chat-turn.ts:579-585).
                if global, state.store.conversation(conversationID)?.title.isEmpty == true {
                    _ = state.store.rename(conversationID, to: DerivedTitle.derive(userMessage.plainText))
                }
                // A typed message instead of an answer dismisses a pending question
                // (global-chat-turn.ts:600-607, page-chat-turn.ts:1009-1020).
                AskUser.dismissPending(in: conversationID, store: state.store)
                segments = AskUser.asks(userMessage.plainText) ? AskUser.question(callID: callID, global: global)
                    : ReplyScript.withControlCalls(ReplyScript.reply(to: userMessage.plainText, callID: callID), global: global)
            } else {
                segments = ReplyScript.reply(to: userMessage.plainText, callID: callID)
            }
        }

        // takeOverConversationStreams (apps/web/src/lib/ai/chat-pipeline/start-chat-generation.ts:
        // 76-84, lib/ai/core/stream-takeover.ts): today's server stops a reply still being
        // generated in this conversation once the new message is stored; that stream ends with
        // [DONE] and no finish.
        if state.dialect == .pagespace {
            for running in state.streams.find(streamID: nil, messageID: nil, conversationID: conversationID) {
                _ = running.requestAbort()
            }
        }
        let generation = ReplyGeneration(
            streamID: Identifiers.random(prefix: "stream_"), messageID: state.ids.nextMessageID(),
            conversationID: conversationID, fault: state.faults.takeReply())
        var chunks = ChunkScript.chunks(for: segments, messageID: generation.messageID, dialect: state.dialect)
        // createStreamLifecycle (lib/ai/core/stream-lifecycle.ts:271-351) consumes a pending
        // abort (AbortRoute, PendingAborts): the send is pre-aborted, its execute writes nothing
        // (global-chat-turn.ts:1269-1289, page-chat-turn.ts:1746-1762), so the stream is [DONE]
        // alone and no reply is stored.
        if state.dialect == .pagespace, state.pendingAborts.consume(conversationID) {
            generation.requestAbort()
            chunks = []
        }
        let pacing = ReplyGeneration.Pacing(paceMs: state.paceMs, slow: state.faults.takeSlow())
        let drop = state.faults.takeDrop()

        state.streams.add(generation)
        state.store.beginReply(generation.messageID, in: conversationID)
        Task {
            await generation.run(chunks: chunks, pacing: pacing) { parts in
                if parts.isEmpty {
                    state.store.abandonReply(generation.messageID, in: conversationID)
                } else {
                    // After the question, even within the same millisecond.
                    let createdAt = max(Timestamp.now(), askedAt + 1)
                    let reply = StoredMessage(id: generation.messageID, role: "assistant", parts: parts, createdAt: createdAt)
                    state.store.append(reply, to: conversationID, status: generation.isAborted ? "interrupted" : "complete")
                }
                state.streams.remove(generation, aborted: generation.isAborted)
            }
        }

        var headers = extraHeaders
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        headers[HTTPField.Name("x-vercel-ai-ui-message-stream")!] = "v1"
        headers[HTTPField.Name("x-accel-buffering")!] = "no"
        if state.dialect.isCurrent { headers[HTTPField.Name("X-Stream-Id")!] = generation.streamID }

        let body = ResponseBody { writer in
            var sent = 0
            for await event in generation.events {
                if let drop, case .chunk = event, sent >= drop.afterEvents {
                    // The fault: close the connection mid-stream, no [DONE]; or close cleanly
                    // with [DONE] and no finish.
                    if drop.midEvent { try await writer.write(ByteBuffer(bytes: event.wireBytes.prefix(event.wireBytes.count / 2))) }
                    guard drop.clean else { throw ConnectionDropped() }
                    try await writer.write(ByteBuffer(bytes: StreamEvent.done.wireBytes))
                    break
                }
                try await writer.write(ByteBuffer(bytes: event.wireBytes))
                if case .chunk = event { sent += 1 }
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The last message of the body's `messages`, which must be the user's; only it is
    /// used, the server has the rest. Its client-made id is kept.
    static func userMessage(from body: JSON, state: ServerState) throws -> StoredMessage {
        guard let last = body["messages"]?.arrayValue?.last, last.objectValue != nil else {
            throw Refusal.badRequest("messages must be a non-empty array of UIMessages")
        }
        guard last["role"]?.stringValue == "user" else {
            throw Refusal.badRequest("the last message must have role user")
        }
        var parts: [JSON]
        if let given = last["parts"]?.arrayValue {
            parts = given
        } else if let content = last["content"]?.stringValue {
            parts = [["type": "text", "text": .string(content)]]
        } else {
            throw Refusal.badRequest("the last message has neither parts nor content")
        }
        // Images were checked by the route (ImageGate) and are kept as sent (the history
        // returns them); the legacy API predates image support and checks nothing.
        parts = parts.filter { $0.objectValue != nil }
        let id = last["id"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? state.ids.nextMessageID()
        return StoredMessage(id: id, role: "user", parts: parts, createdAt: Timestamp.now())
    }
}
