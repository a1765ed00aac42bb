import PSCore

/// A send's answer from an API that answers with one JSON document instead of a stream,
/// written as the AI SDK UI message stream a streaming server sends, so that
/// `ps-send | ps-sse | ps-parts | ps-render` reads it unchanged (see ps-ndjson(5)).
public struct WholeAnswer: Sendable {
    /// The SSE bytes: `start`, `text-start`, one `text-delta` with the whole text, `text-end`,
    /// `finish`, then `[DONE]`.
    public var streamBytes: [UInt8]
    /// The conversation the server put the turn in.
    public var conversationID: String?
    /// The server's id of the user's message (what --print-ids says as message=).
    public var userMessageID: String?

    public init(streamBytes: [UInt8], conversationID: String?, userMessageID: String?) {
        self.streamBytes = streamBytes
        self.conversationID = conversationID
        self.userMessageID = userMessageID
    }
}

/// Writes a whole reply as UI message stream records.
public enum WholeAnswerStream {
    /// `messageID` goes into `start` (the assistant message's id), `metadata` into its
    /// `messageMetadata`; the text is one `text-1` block with a single delta.
    public static func bytes(messageID: String?, text: String, metadata: JSON?) -> [UInt8] {
        var start = JSONObject()
        start["type"] = "start"
        start["messageId"] = messageID.map(JSON.string)
        if let metadata, metadata.objectValue?.isEmpty == false { start["messageMetadata"] = metadata }
        var records: [JSON] = [.object(start)]
        if !text.isEmpty {
            records += [
                ["type": "text-start", "id": "text-1"],
                ["type": "text-delta", "id": "text-1", "delta": .string(text)],
                ["type": "text-end", "id": "text-1"],
            ]
        }
        records.append(["type": "finish", "finishReason": "stop"])
        var out: [UInt8] = []
        for record in records {
            out += Array("data: ".utf8)
            record.write(to: &out)
            out += [0x0A, 0x0A]
        }
        out += Array("data: [DONE]\n\n".utf8)
        return out
    }
}
