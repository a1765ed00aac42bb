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

    /// What a joiner (`stream-join`) is sent: a chunk with its seq, the end, or (the seq asked
    /// for is no longer in the memory ring) the oldest seq that is.
    enum JoinEvent: Sendable {
        case frame(seq: Int, chunk: JSON)
        case end(aborted: Bool, reload: Bool)
        case overflow(resumeFromSeq: Int)
    }

    /// The frames in memory (a ring: seqs firstAvailableSeq..<nextSeq), the durable frame log,
    /// how it ended, and the joiners.
    private struct Channel {
        var ring: [JSON] = []
        var firstAvailableSeq = 0
        var log: [JSON] = []
        var ended: Bool?
        var joiners: [AsyncStream<JoinEvent>.Continuation] = []

        var nextSeq: Int { firstAvailableSeq + ring.count }
    }

    let streamID: String
    let messageID: String
    let conversationID: String
    let startedAt = Timestamp.now()
    let events: AsyncStream<StreamEvent>
    /// How it behaves on the server side (a fault armed for it, or the defaults).
    let fault: FaultBoard.ReplyFault?
    private let continuation: AsyncStream<StreamEvent>.Continuation
    private let abortRequested = Mutex(false)
    private let channel = Mutex(Channel())

    /// stream-channel.ts DEFAULT_MAX_MEMORY_FRAMES.
    static let ringFrames = 50_000

    init(streamID: String, messageID: String, conversationID: String, fault: FaultBoard.ReplyFault? = nil) {
        self.streamID = streamID
        self.messageID = messageID
        self.conversationID = conversationID
        self.fault = fault
        (events, continuation) = AsyncStream.makeStream(of: StreamEvent.self, bufferingPolicy: .unbounded)
    }

    /// An abort reaches it, unless it runs where aborts are not acted on (the unstoppable fault).
    @discardableResult
    func requestAbort() -> Bool {
        guard fault?.unstoppable != true else { return false }
        abortRequested.withLock { $0 = true }
        return true
    }

    var isAborted: Bool { abortRequested.withLock { $0 } }

    var frameCount: Int { channel.withLock { $0.nextSeq } }

    /// The durable frame log once the reply ended: nil when it was released (the normal case:
    /// stream-lifecycle.ts deletes the frames once the message is saved).
    var retainedLog: [JSON]? {
        guard fault?.frameLog != nil else { return nil }
        return channel.withLock { $0.log }
    }

    /// The chunks from `fromSeq` on, then each new one, then the end (stream-channel.ts
    /// subscribe:309-353: a seq is the chunk's index, counted from 0); a seq the ring has
    /// evicted ends it at once with the oldest seq it still holds.
    func join(fromSeq: Int) -> AsyncStream<JoinEvent> {
        let (stream, joiner) = AsyncStream.makeStream(of: JoinEvent.self, bufferingPolicy: .unbounded)
        channel.withLock { channel in
            if fromSeq < channel.firstAvailableSeq {
                joiner.yield(.overflow(resumeFromSeq: channel.firstAvailableSeq))
                joiner.finish()
                return
            }
            for seq in max(fromSeq, channel.firstAvailableSeq)..<max(fromSeq, channel.nextSeq) {
                joiner.yield(.frame(seq: seq, chunk: channel.ring[seq - channel.firstAvailableSeq]))
            }
            if let aborted = channel.ended {
                joiner.yield(.end(aborted: aborted, reload: false))
                joiner.finish()
            } else {
                channel.joiners.append(joiner)
            }
        }
        return stream
    }

    private func publish(_ chunk: JSON) {
        let ringFrames = fault?.ringFrames ?? Self.ringFrames
        let logFrames: Int
        if case .cut(let frames)? = fault?.frameLog { logFrames = frames } else { logFrames = Int.max }
        channel.withLock { channel in
            let seq = channel.nextSeq
            channel.ring.append(chunk)
            if channel.ring.count > ringFrames {
                channel.ring.removeFirst()
                channel.firstAvailableSeq += 1
            }
            if fault?.frameLog != nil, channel.log.count < logFrames { channel.log.append(chunk) }
            for joiner in channel.joiners { joiner.yield(.frame(seq: seq, chunk: chunk)) }
        }
        continuation.yield(.chunk(chunk))
    }

    private func end(aborted: Bool) {
        channel.withLock { channel in
            channel.ended = aborted
            for joiner in channel.joiners {
                joiner.yield(.end(aborted: aborted, reload: false))
                joiner.finish()
            }
            channel.joiners = []
        }
    }

    /// Sends `chunks` with the pacing asked for, calls `finished` with the message parts that
    /// were streamed (all of them, or those before an abort), then sends `[DONE]`.
    func run(chunks: [JSON], pacing: Pacing, finished: @Sendable ([JSON]) -> Void) async {
        var recorder = ReplyRecorder()
        // Aborted before it started (pre-aborted): it sends nothing and ends aborted.
        var aborted = isAborted
        for (index, chunk) in chunks.enumerated() {
            if index > 0 { await pause(pacing, before: index) }
            if isAborted {
                aborted = true
                publish(["type": "abort"])
                break
            }
            recorder.apply(chunk)
            publish(chunk)
        }
        // Stored before [DONE], as the AI SDK's onFinish runs before the stream closes: a
        // client that reads the history right after the stream sees the reply.
        finished(recorder.historyParts)
        end(aborted: aborted)
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
/// conversation id and a joiner by message id; and those that ended: their
/// `ai_stream_sessions` row (how it ended) and what their durable frame log still holds.
final class StreamRegistry: Sendable {
    struct Ended: Sendable {
        let aborted: Bool
        /// nil: released.
        let log: [JSON]?
    }

    private let running = Mutex<[String: ReplyGeneration]>([:])
    private let ended = Mutex<[String: Ended]>([:])

    func add(_ generation: ReplyGeneration) { running.withLock { $0[generation.streamID] = generation } }

    func remove(_ generation: ReplyGeneration, aborted: Bool = false) {
        let log = generation.retainedLog
        ended.withLock { $0[generation.messageID] = Ended(aborted: aborted, log: log) }
        running.withLock { _ = $0.removeValue(forKey: generation.streamID) }
    }

    /// The running generation of a message, or how a finished one ended, or nothing.
    func lookup(messageID: String) -> (running: ReplyGeneration?, ended: Ended?) {
        if let generation = running.withLock({ all in all.values.first { $0.messageID == messageID } }) {
            return (generation, nil)
        }
        return (nil, ended.withLock { $0[messageID] })
    }

    /// The running generations, oldest first.
    func all() -> [ReplyGeneration] {
        running.withLock { Array($0.values) }.sorted { ($0.startedAt, $0.messageID) < ($1.startedAt, $1.messageID) }
    }

    func find(streamID: String?, messageID: String?, conversationID: String?) -> [ReplyGeneration] {
        running.withLock { all in
            all.values.filter {
                (streamID != nil && $0.streamID == streamID) || (messageID != nil && $0.messageID == messageID)
                    || (conversationID != nil && $0.conversationID == conversationID)
            }
        }
    }
}
