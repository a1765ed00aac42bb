import PSCore
import Synchronization

/// What a reply stream carries: a chunk, an SSE comment, or the end.
enum StreamEvent: Sendable {
    case chunk(JSON)
    case comment(String)
    case done

    /// The bytes on the wire: `data: {json}\n\n`, `: comment\n\n`, `data: [DONE]\n\n`.
    var wireBytes: [UInt8] {
        switch self {
        case .chunk(let json):
            var bytes = Array("data: ".utf8)
            json.write(to: &bytes)
            bytes += [10, 10]
            return bytes
        case .comment(let text): return Array(": \(text)\n\n".utf8)
        case .done: return Array("data: [DONE]\n\n".utf8)
        }
    }
}

/// One assistant turn being "generated". It runs on its own task, as PageSpace generates
/// on the server regardless of the client: a client that disconnects does not stop it,
/// `POST /api/ai/abort` does. Whatever was produced is stored when it ends.
final class ReplyGeneration: Sendable {
    struct Pacing: Sendable {
        var paceMs: Int
        var slow: FaultBoard.SlowFault?
    }

    let streamID: String
    let messageID: String
    let conversationID: String
    let events: AsyncStream<StreamEvent>
    private let continuation: AsyncStream<StreamEvent>.Continuation
    private let abortRequested = Mutex(false)

    init(streamID: String, messageID: String, conversationID: String) {
        self.streamID = streamID
        self.messageID = messageID
        self.conversationID = conversationID
        (events, continuation) = AsyncStream.makeStream(of: StreamEvent.self, bufferingPolicy: .unbounded)
    }

    func requestAbort() { abortRequested.withLock { $0 = true } }

    private var isAborted: Bool { abortRequested.withLock { $0 } }

    /// Sends `chunks` with the pacing asked for, calls `finished` with the message parts that
    /// were streamed (all of them, or those before an abort), then sends `[DONE]`.
    func run(chunks: [JSON], pacing: Pacing, finished: @Sendable ([JSON]) -> Void) async {
        var recorder = ReplyRecorder()
        for (index, chunk) in chunks.enumerated() {
            if index > 0 { await pause(pacing, before: index) }
            if isAborted {
                continuation.yield(.chunk(["type": "abort"]))
                break
            }
            recorder.apply(chunk)
            continuation.yield(.chunk(chunk))
        }
        // Stored before [DONE], as the AI SDK's onFinish runs before the stream closes: a
        // client that reads the history right after the stream sees the reply.
        finished(recorder.historyParts)
        continuation.yield(.done)
        continuation.finish()
    }

    private func pause(_ pacing: Pacing, before index: Int) async {
        if let slow = pacing.slow, index <= slow.events ?? Int.max {
            var waited = 0
            while waited < slow.pauseMs, !isAborted {
                let step = min(slow.keepAliveMs, slow.pauseMs - waited)
                try? await Task.sleep(for: .milliseconds(step))
                waited += step
                continuation.yield(.comment("keep-alive"))
            }
        }
        if pacing.paceMs > 0 { try? await Task.sleep(for: .milliseconds(pacing.paceMs)) }
    }
}

/// The generations still running, so that an abort can find one by stream, message or
/// conversation id.
final class StreamRegistry: Sendable {
    private let running = Mutex<[String: ReplyGeneration]>([:])

    func add(_ generation: ReplyGeneration) { running.withLock { $0[generation.streamID] = generation } }

    func remove(_ generation: ReplyGeneration) { running.withLock { _ = $0.removeValue(forKey: generation.streamID) } }

    func find(streamID: String?, messageID: String?, conversationID: String?) -> [ReplyGeneration] {
        running.withLock { all in
            all.values.filter {
                (streamID != nil && $0.streamID == streamID) || (messageID != nil && $0.messageID == messageID)
                    || (conversationID != nil && $0.conversationID == conversationID)
            }
        }
    }
}
