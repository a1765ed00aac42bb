import PSCore

/// Reads a joined stream (`StreamResuming.joinRequest`): SSE events `data: {"seq":N,"chunk":{…}}`,
/// one UI message chunk each in seq order, then `data: {"done":true,"aborted":bool}`, or
/// `{"done":true,"resumeFromSeq":N}` when the chunks asked for are gone (a gap), or
/// `{"done":true,…,"reload":true}` when the stream ended and released its chunks (the stored
/// message is then the only whole copy). `: ping` comments keep a silent one alive.
public struct StreamJoin {
    private struct StopReading: Error {}

    public enum End: Equatable, Sendable {
        /// The reply ended (stopped on the server when `aborted`).
        case finished(aborted: Bool)
        /// The chunks after the cursor are gone: the server can start at `from` only.
        case gap(from: Int)
        /// The reply already ended and its chunks were released: read the stored message.
        case released(aborted: Bool)
        /// The connection closed without saying how the stream ended.
        case cut
    }

    public let adapter: StreamResuming

    public init(adapter: StreamResuming) { self.adapter = adapter }

    /// Joins `messageID` from `fromSeq`; `onChunk` gets each chunk at or after the cursor, in
    /// order (repeats are dropped by seq). A refusal (a stream the server does not know: 404)
    /// throws its ToolError.
    public func follow(messageID: String, fromSeq: Int, onChunk: @escaping (Int, JSON) throws -> Void) throws -> End {
        let request = adapter.joinRequest(messageID: messageID, fromSeq: fromSeq)
        var parser = SSEParser()
        var head: HTTPResponseHead?
        var errorBody: [UInt8] = []
        var next = fromSeq
        var end: End?
        do {
            try adapter.client.http.stream(request, onHead: { head = $0 }, onBody: { chunk in
                guard head?.isSuccess == true else {
                    if errorBody.count < 64 * 1024 { errorBody.append(contentsOf: chunk) }
                    return
                }
                guard end == nil else { return }
                try parser.feed(chunk) { event in
                    guard end == nil, let frame = try? JSON.parse(bytes: Array(event.data)) else { return }
                    if frame["done"]?.boolValue == true {
                        let aborted = frame["aborted"]?.boolValue ?? false
                        if let from = frame["resumeFromSeq"]?.intValue {
                            end = .gap(from: Int(from))
                        } else if frame["reload"]?.boolValue == true {
                            end = .released(aborted: aborted)
                        } else {
                            end = .finished(aborted: aborted)
                        }
                        return
                    }
                    guard let seq = frame["seq"]?.intValue.map(Int.init), let chunk = frame["chunk"],
                          chunk["type"]?.stringValue != nil else { return }
                    if seq > next {
                        end = .gap(from: seq)
                        throw StopReading()
                    }
                    guard seq == next else { return }
                    try onChunk(seq, chunk)
                    next += 1
                }
            })
        } catch TransferFailure.network(_, true) {
            return end ?? .cut
        } catch is StopReading {
        } catch let tooLong as RecordTooLong {
            throw tooLong.serverError()
        }
        guard let head, head.isSuccess else {
            let response = HTTPResponse(head: head ?? HTTPResponseHead(status: 0, headers: []), body: errorBody)
            throw APIErrors.toolError(response, request: request)
        }
        return end ?? .cut
    }
}
