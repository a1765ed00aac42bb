/// What one chunk did to the message being built: the raw material of ps-parts' part records.
public enum MessageChange: Equatable, Sendable {
    /// A part was appended at this index.
    case partAdded(Int)
    /// Text was appended to the text or reasoning part at this index.
    case textAppended(Int, String)
    /// The part at this index changed some other way (state, input, output, metadata, data).
    case partChanged(Int)
    /// The parts from this index on were removed (`reset-step`).
    case partsRemoved(from: Int)
    /// The message's metadata changed.
    case metadataChanged
    /// The message's id changed (a `start` with a `messageId`).
    case idChanged
}

/// What a chunk means beyond its changes to the message.
public enum ChunkOutcome: Equatable, Sendable {
    case applied
    /// An `error` chunk: the SDK stops reading the stream here.
    case streamError(String)
    /// An `abort` chunk: the turn was aborted (the SDK keeps reading).
    case aborted(String?)
    /// A `finish` chunk.
    case finished
}
