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

    /// Returns once the join says the reply ended (its [DONE] written); throws when the rest
    /// of the reply cannot be had this way. When the server no longer holds the chunks from
    /// the cursor (`{done, resumeFromSeq}`, stream-join/[messageId]/route.ts:192-193), the
    /// reply is joined again from the seq it names and the rest is written, mended where a
    /// part began in the gap (OpenParts.mended); the run then ends with exit 10, naming the
    /// chunks that are missing and where the whole reply is.
    func resume(messageID: String, cut: String) throws {
        var reason = cut
        var nextSeq = firstSeq + stream.chunksWritten
        var gaps: [Range<Int>] = []
        for attempt in 1...Self.attempts {
            if (attempt > 1 || afterCut) && gaps.last?.upperBound != nextSeq {
                Diagnostics.warning("the connection broke after \(nextSeq) chunks (\(reason)); "
                    + "joining the reply again (stream-join, attempt \(attempt) of \(Self.attempts))")
            }
            let end: StreamJoin.End
            let joinedAt = nextSeq
            do {
                end = try join.follow(messageID: messageID, fromSeq: nextSeq) { seq, chunk in
                    nextSeq = seq + 1
                    for piece in gaps.isEmpty ? [chunk] : stream.openParts.mended(chunk) {
                        var bytes = Array("data: ".utf8)
                        piece.write(to: &bytes)
                        bytes += [0x0A, 0x0A]
                        try bytes.withUnsafeBytes { try stream.emit($0) }
                    }
                }
            } catch TransferFailure.network(let message, false) where attempt < Self.attempts {
                reason = message
                pause(attempt)
                continue
            }
            switch end {
            case .finished:
                try Array("data: [DONE]\n\n".utf8).withUnsafeBytes { try stream.emit($0) }
                guard gaps.isEmpty else {
                    let missing = gaps.map { "\($0.lowerBound)-\($0.upperBound - 1)" }.joined(separator: ", ")
                    throw ToolError(.incomplete, "chunks \(missing) of the reply were gone from the server when it was "
                        + "joined again; the rest was written, and the whole reply is stored: \(historyHint)")
                }
                return
            case .cut:
                reason = "the join was cut too"
                if attempt < Self.attempts { pause(attempt) }
            case .gap(let from) where from > nextSeq && attempt < Self.attempts:
                Diagnostics.warning("the server no longer holds the reply's chunks \(nextSeq)-\(from - 1); "
                    + "joining it again from chunk \(from)")
                gaps.append(nextSeq..<from)
                nextSeq = from
            case .gap(let from):
                throw ToolError(.incomplete, "the server no longer holds the reply's chunks from \(nextSeq) "
                    + "(it starts at \(from)); what arrived was written, and the whole reply is stored: \(historyHint)")
            case .released where nextSeq > joinedAt:
                // A finished reply served from the server's frame log, which ends early
                // (remote-frame-follower.ts:257-272: cut, or no finish): a prefix.
                throw ToolError(.incomplete, "the server's copy of the reply's chunks ends early (after chunk "
                    + "\(nextSeq - 1)); what it held was written, and the whole reply is stored: \(historyHint)")
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
