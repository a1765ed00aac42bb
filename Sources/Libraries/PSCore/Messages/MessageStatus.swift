/// How a streamed message ended (ps-ndjson(5), `message-end`).
public enum MessageStatus: Equatable, Sendable {
    case complete
    /// `line` is the input line where the problem showed (the last line for `no-finish`).
    case incomplete(reason: IncompleteReason, detail: String, line: Int)
}

public enum IncompleteReason: String, Sendable {
    /// The stream ended without `finish` or `[DONE]`.
    case noFinish = "no-finish"
    /// The server sent an `error` chunk.
    case error
    /// The server sent an `abort` chunk.
    case abort
    /// A chunk could not be applied, or a line was not a record.
    case malformed
}
