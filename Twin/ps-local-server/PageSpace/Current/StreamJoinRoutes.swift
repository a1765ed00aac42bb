import HTTPTypes
import Hummingbird
import PSCore

/// Following a reply that is still being generated: join it from a seq, and list the
/// streams in flight. Session tokens only.
struct StreamJoinRoutes {
    let state: ServerState
    /// How often a joined stream that has nothing to send says it is alive (`: ping`).
    static let pingInterval = Duration.seconds(20)

    func register(on router: Router<ServerContext>) {
        let auth = state.authenticator

        // apps/web/src/app/api/ai/chat/stream-join/[messageId]/route.ts: `data: {seq, chunk}`
        // from fromSeq (a bad one counts as 0, :152-155), then `data: {done, aborted}`
        // (:192-198). A seq the memory ring no longer holds ends at once with
        // `{done, resumeFromSeq}` (:192-193, stream-channel.ts:314-321). A reply that already
        // ended (its `terminal` row, :141-146) is followed through its durable frame log: the
        // frames the log still holds, then the end, with `reload: true` only when the log was
        // released, is empty or never reached a finish/abort/error frame
        // (remote-frame-follower.ts:257-272). An unknown message is a 404 {"error":"Stream not found"}.
        router.get("/api/ai/chat/stream-join/:messageId") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            let messageID = context.parameters.get("messageId") ?? ""
            let found = state.streams.lookup(messageID: messageID)
            let requested = request.query("fromSeq").flatMap(Double.init) ?? 0
            let fromSeq = requested.isFinite && requested >= 0 ? Int(requested.rounded(.down)) : 0
            let events: AsyncStream<ReplyGeneration.JoinEvent>
            if let generation = found.running {
                events = generation.join(fromSeq: fromSeq)
            } else if let ended = found.ended {
                events = Self.followLog(ended, fromSeq: fromSeq)
            } else {
                throw Refusal(status: .notFound, error: "Stream not found")
            }
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream"
            headers[.cacheControl] = "no-cache"
            headers[HTTPField.Name("X-Accel-Buffering")!] = "no"
            headers[HTTPField.Name("X-Stream-Join-Source")!] = found.running == nil ? "terminal" : "local"
            let body = ResponseBody { writer in
                for await event in Self.withPings(events) {
                    var bytes = Array("data: ".utf8)
                    switch event {
                    case .some(.frame(let seq, let chunk)):
                        let frame: JSON = ["seq": .integer(Int64(seq)), "chunk": chunk]
                        frame.write(to: &bytes)
                    case .some(.end(let aborted, let reload)):
                        var done = JSONObject()
                        done["done"] = true
                        done["aborted"] = .bool(aborted)
                        if reload { done["reload"] = true }
                        JSON.object(done).write(to: &bytes)
                    case .some(.overflow(let resumeFromSeq)):
                        let done: JSON = ["done": true, "resumeFromSeq": .integer(Int64(resumeFromSeq))]
                        done.write(to: &bytes)
                    case .none:
                        bytes = Array(": ping".utf8)
                    }
                    bytes += [10, 10]
                    try await writer.write(ByteBuffer(bytes: bytes))
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: headers, body: body)
        }

        // apps/web/src/app/api/ai/chat/active-streams/route.ts: scope=user lists the caller's
        // streams in flight; channelId (a page id, or user:<id>:global) those of one channel,
        // optionally of one conversation.
        router.get("/api/ai/chat/active-streams") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            let running = state.streams.all()
            if request.query("scope") == "user" {
                return Reply.json(["streams": .array(running.map { generation in
                    [
                        "messageId": .string(generation.messageID), "conversationId": .string(generation.conversationID),
                        "channelId": .string(channel(of: generation)), "startedAt": .string(Timestamp.iso8601(generation.startedAt)),
                    ]
                })])
            }
            guard let channelID = request.query("channelId") else {
                throw Refusal.badRequest("channelId is required (or pass scope=user)")
            }
            // route.ts:70-96: another user's global channel, or a page the user cannot view
            // (one that does not exist included: canUserViewPage is false), is 403.
            if channelID.hasPrefix("user:"), channelID.hasSuffix(":global") {
                guard channelID == "user:\(SeedData.userID):global" else { throw Refusal(status: .forbidden, error: "Forbidden") }
            } else if state.agents.page(channelID) == nil {
                throw Refusal(status: .forbidden, error: "Forbidden")
            }
            let conversationID = request.query("conversationId")
            let streams = running.filter {
                channel(of: $0) == channelID && (conversationID == nil || $0.conversationID == conversationID)
            }
            return Reply.json(["streams": .array(streams.map { generation in
                [
                    "messageId": .string(generation.messageID), "conversationId": .string(generation.conversationID),
                    "startedAt": .string(Timestamp.iso8601(generation.startedAt)), "parts": [],
                    "rawPartsCount": .integer(Int64(generation.frameCount)),
                    "triggeredBy": ["userId": .string(SeedData.userID), "displayName": .string(SeedData.userName), "browserSessionId": .null],
                ]
            })])
        }
    }

    /// The channel a generation streams on: its page, or the user's global channel.
    private func channel(of generation: ReplyGeneration) -> String {
        if case .agent(let pageID)? = state.store.conversation(generation.conversationID)?.kind { return pageID }
        return "user:\(SeedData.userID):global"
    }

    /// remote-frame-follower.ts: the log read from seq 0 into a channel, the joiner served
    /// from its cursor, then the end; a clean end needs proof that the log is whole
    /// (STREAM_TERMINATOR_FRAMES, :90), else `reload`.
    static func followLog(_ ended: StreamRegistry.Ended, fromSeq: Int) -> AsyncStream<ReplyGeneration.JoinEvent> {
        let log = ended.log ?? []
        let terminators: Set<String> = ["finish", "abort", "error"]
        let whole = log.contains { terminators.contains($0["type"]?.stringValue ?? "") }
        return AsyncStream { continuation in
            for (seq, chunk) in log.enumerated() where seq >= fromSeq {
                continuation.yield(.frame(seq: seq, chunk: chunk))
            }
            continuation.yield(.end(aborted: ended.aborted, reload: !whole))
            continuation.finish()
        }
    }

    /// The events, with nil (a ping) after each silent interval.
    static func withPings(
        _ events: AsyncStream<ReplyGeneration.JoinEvent>
    ) -> AsyncStream<ReplyGeneration.JoinEvent?> {
        AsyncStream { continuation in
            let pinger = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: pingInterval)
                    if Task.isCancelled { break }
                    continuation.yield(nil)
                }
            }
            let forwarder = Task {
                for await event in events { continuation.yield(event) }
                pinger.cancel()
                continuation.finish()
            }
            continuation.onTermination = { _ in
                pinger.cancel()
                forwarder.cancel()
            }
        }
    }
}
