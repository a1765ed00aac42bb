import HTTPTypes
import Hummingbird
import PSCore

/// The body of `POST /conversations/:id/messages` (packages/mobile-api
/// src/routes/conversations.ts:109-154 at 1fabb479): status 200 and the SSE headers first, then
/// `event: NAME\ndata: JSON` events, a `: keepalive` comment every `keepAliveMs` (15 s on the
/// real server, 117-120), and the end of the response; there is no `[DONE]`. A cancel ends the
/// turn with `done` and the text so far (sessionManager.ts:171-230: the aborted loop breaks,
/// then `done` is sent; the model's usage never came, so it is 0).
enum GeminiStream {
    enum Item: Sendable {
        case event(name: String, data: JSON)
        case keepAlive
    }

    /// A stream that is only the error event (the session manager threw before streaming).
    static func failed(_ data: JSON) -> Response {
        response(Item.stream([.event(name: "error", data: data)]), drop: nil)
    }

    /// The events of `generation`, with keep-alive comments while it runs; `finished` is called
    /// with what the turn sent once it ended, whether or not the client still listens (the
    /// server goes on when the client hangs up: only a cancel stops it).
    static func response(
        _ generation: ReplyGeneration, keepAliveMs: Int, drop: FaultBoard.DropFault?,
        finished: @escaping @Sendable (GeminiTurnRecorder) -> Void
    ) -> Response {
        let (items, output) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .unbounded)
        let keepAlive = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(keepAliveMs))
                if Task.isCancelled { break }
                output.yield(.keepAlive)
            }
        }
        Task {
            var recorder = GeminiTurnRecorder()
            var cancelled = false
            for await event in generation.events {
                switch event {
                case .chunk(let chunk):
                    guard !cancelled else { continue }
                    if chunk["type"]?.stringValue == "abort" {
                        cancelled = true
                        let done = GeminiEvents.event("done", [
                            "fullResponse": .string(recorder.content), "usage": ["inputTokens": 0, "outputTokens": 0],
                        ])
                        recorder.apply(done)
                        output.yield(.event(name: "done", data: done["data"]!))
                        continue
                    }
                    guard let name = chunk["event"]?.stringValue, let data = chunk["data"] else { continue }
                    recorder.apply(chunk)
                    output.yield(.event(name: name, data: data))
                case .comment, .done:
                    // The slow fault's own comments are not this server's: its keep-alive
                    // comes from the interval timer above.
                    continue
                }
            }
            keepAlive.cancel()
            finished(recorder)
            output.finish()
        }
        return response(items, drop: drop)
    }

    /// Writes the items; the drop fault cuts the stream after `afterEvents` events: closing the
    /// connection, or (`stop`) ending the response cleanly without the rest.
    private static func response(_ items: AsyncStream<Item>, drop: FaultBoard.DropFault?) -> Response {
        let headers: HTTPFields = [
            .contentType: "text/event-stream", .cacheControl: "no-cache",
            HTTPField.Name("X-Accel-Buffering")!: "no",
        ]
        let body = ResponseBody { writer in
            var sent = 0
            for await item in items {
                switch item {
                case .keepAlive:
                    try await writer.write(ByteBuffer(string: ": keepalive\n\n"))
                case .event(let name, let data):
                    if let drop, sent >= drop.afterEvents {
                        guard drop.clean else { throw ConnectionDropped() }
                        try await writer.finish(nil)
                        return
                    }
                    try await writer.write(ByteBuffer(bytes: GeminiEvents.wireBytes(name, data)))
                    sent += 1
                }
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}

extension GeminiStream.Item {
    static func stream(_ items: [GeminiStream.Item]) -> AsyncStream<GeminiStream.Item> {
        AsyncStream { continuation in
            for item in items { continuation.yield(item) }
            continuation.finish()
        }
    }
}
