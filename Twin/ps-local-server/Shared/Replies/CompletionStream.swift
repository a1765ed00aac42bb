import HTTPTypes
import Hummingbird
import PSCore

/// Turns what a generation produces into the `data:` lines of an OpenAI-style stream: the
/// PageSpace adapter maps AI SDK chunks, the plain server's chunks pass as they are.
protocol CompletionChunkMapper: Sendable {
    /// The chat.completion.chunk objects one generated chunk becomes (often none).
    mutating func map(_ chunk: JSON) -> [JSON]
    /// What is sent after the last chunk, before `[DONE]`.
    mutating func trailer() -> [JSON]
}

/// Chunks that are already chat.completion.chunk objects.
struct PassThroughChunks: CompletionChunkMapper {
    func map(_ chunk: JSON) -> [JSON] { [chunk] }
    func trailer() -> [JSON] { [] }
}

/// The streamed answer of a chat completion route: `data: {chunk}` lines, `: keep-alive`
/// comments while the slow fault holds it back, `data: [DONE]` last. The drop fault cuts it
/// after `afterEvents` data lines (closing the connection, or with `[DONE]` for `stop`). A
/// client that goes away stops the generation, as an OpenAI-style server stops the model
/// when the consumer closes the connection.
enum CompletionStream {
    static func response<Mapper: CompletionChunkMapper>(
        _ generation: ReplyGeneration, mapper: Mapper, drop: FaultBoard.DropFault?, headers extra: HTTPFields = [:]
    ) -> Response {
        var headers = extra
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        let body = ResponseBody { writer in
            var mapper = mapper
            var sent = 0
            do {
                for await event in generation.events {
                    for line in lines(for: event, mapper: &mapper) {
                        if let drop, case .chunk = line, sent >= drop.afterEvents {
                            generation.requestAbort()
                            guard drop.clean else { throw ConnectionDropped() }
                            try await writer.write(ByteBuffer(bytes: StreamEvent.done.wireBytes))
                            try await writer.finish(nil)
                            return
                        }
                        try await writer.write(ByteBuffer(bytes: line.wireBytes))
                        if case .chunk = line { sent += 1 }
                    }
                }
            } catch {
                generation.requestAbort()
                throw error
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    private static func lines<Mapper: CompletionChunkMapper>(for event: StreamEvent, mapper: inout Mapper) -> [StreamEvent] {
        switch event {
        case .chunk(let chunk):
            // The abort marker is the AI SDK's own; an OpenAI stream just ends.
            if chunk["type"]?.stringValue == "abort" { return [] }
            return mapper.map(chunk).map(StreamEvent.chunk)
        case .comment: return [event]
        case .done: return mapper.trailer().map(StreamEvent.chunk) + [.done]
        }
    }
}
