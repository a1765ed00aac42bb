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
        // from fromSeq (a bad one counts as 0), then `data: {done, aborted}`; a stream that
        // already ended has released its frames (`reload: true`: read the stored message);
        // an unknown message is a 404 {"error":"Stream not found"}.
        router.get("/api/ai/chat/stream-join/:messageId") { request, context in
            _ = try auth.require(request, scope: .sessionOnly)
            let messageID = context.parameters.get("messageId") ?? ""
            let found = state.streams.lookup(messageID: messageID)
            let requested = request.query("fromSeq").flatMap(Double.init) ?? 0
            let fromSeq = requested.isFinite && requested >= 0 ? Int(requested.rounded(.down)) : 0
            let events: AsyncStream<ReplyGeneration.JoinEvent>
            if let generation = found.running {
                events = generation.join(fromSeq: fromSeq)
            } else if let aborted = found.endedAborted {
                events = AsyncStream { $0.yield(.end(aborted: aborted)); $0.finish() }
            } else {
                throw Refusal(status: .notFound, error: "Stream not found")
            }
            let released = found.running == nil
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream"
            headers[.cacheControl] = "no-cache"
            headers[HTTPField.Name("X-Accel-Buffering")!] = "no"
            headers[HTTPField.Name("X-Stream-Join-Source")!] = released ? "terminal" : "local"
            let body = ResponseBody { writer in
                for await event in Self.withPings(events) {
                    var bytes: [UInt8]
                    switch event {
                    case .some(.frame(let seq, let chunk)):
                        bytes = Array("data: ".utf8)
                        let frame: JSON = ["seq": .integer(Int64(seq)), "chunk": chunk]
                        frame.write(to: &bytes)
                        bytes += [10, 10]
                    case .some(.end(let aborted)):
                        var done = JSONObject()
                        done["done"] = true
                        done["aborted"] = .bool(aborted)
                        if released { done["reload"] = true }
                        bytes = Array("data: ".utf8)
                        JSON.object(done).write(to: &bytes)
                        bytes += [10, 10]
                    case .none:
                        bytes = Array(": ping\n\n".utf8)
                    }
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
            if channelID.hasPrefix("user:"), channelID.hasSuffix(":global"), channelID != "user:\(SeedData.userID):global" {
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
