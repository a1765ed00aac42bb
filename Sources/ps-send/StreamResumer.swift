import PSCore
import PSNet
#if canImport(Glibc)
import Glibc
#endif

/// Continues a reply whose connection broke, through the server's stream join: the chunks
/// after the last one written follow in the same SSE form (`data: {chunk}`), none repeated,
/// then `data: [DONE]`. A join that breaks too is joined again, a few times, with a pause.
struct StreamResumer {
    let join: StreamJoin
    let stream: ResponseStream
    /// Named in the messages that send the user to the stored reply.
    let conversationID: String?
    /// The seq of the first chunk `stream` holds (a later run may start anywhere).
    var firstSeq = 0
    /// Whether this continues a send whose connection broke (else: a later run, --resume).
    var afterCut = true
    static let attempts = 4

    private var nextSeq: Int { firstSeq + stream.chunksWritten }

    /// Returns once the join says the reply ended (its [DONE] written); throws when the rest
    /// of the reply cannot be had this way.
    func resume(messageID: String, cut: String) throws {
        var reason = cut
        for attempt in 1...Self.attempts {
            if attempt > 1 || afterCut {
                Diagnostics.warning("the connection broke after \(nextSeq) chunks (\(reason)); "
                    + "joining the reply again (stream-join, attempt \(attempt) of \(Self.attempts))")
            }
            let end: StreamJoin.End
            do {
                end = try join.follow(messageID: messageID, fromSeq: nextSeq) { _, chunk in
                    var bytes = Array("data: ".utf8)
                    chunk.write(to: &bytes)
                    bytes += [0x0A, 0x0A]
                    try bytes.withUnsafeBytes { try stream.emit($0) }
                }
            } catch TransferFailure.network(let message, false) where attempt < Self.attempts {
                reason = message
                pause(attempt)
                continue
            }
            switch end {
            case .finished:
                try Array("data: [DONE]\n\n".utf8).withUnsafeBytes { try stream.emit($0) }
                return
            case .cut:
                reason = "the join was cut too"
                if attempt < Self.attempts { pause(attempt) }
            case .gap(let from):
                throw ToolError(.incomplete, "the server no longer holds the reply's chunks from \(nextSeq) "
                    + "(it starts at \(from)); what arrived was written, and the whole reply is stored: \(historyHint)")
            case .released where afterCut:
                throw ToolError(.incomplete, "the reply ended on the server while the connection was down; what arrived "
                    + "was written, and the whole reply is stored: \(historyHint)")
            case .released:
                throw ToolError(.notFound, "the reply is no longer being generated (its chunks are gone); "
                    + "the whole reply is stored: \(historyHint)")
            }
        }
        throw ToolError(.networkError, "the reply could not be joined again after \(Self.attempts) attempts (\(reason)); "
            + "it goes on on the server: \(historyHint)")
    }

    private var historyHint: String {
        conversationID.map { "ps-history --conversation \(TerminalSafeText.sanitize($0))" } ?? "ps-history"
    }

    private func pause(_ attempt: Int) {
        usleep(useconds_t(min(4, attempt) * 250_000))
    }
}
