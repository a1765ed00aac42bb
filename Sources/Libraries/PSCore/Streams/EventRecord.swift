/// The event record of ps-ndjson(5), one line per event: `{"event":…,"id":…,"data":…}`, then
/// `"retry":…` when the event's block set one and `"done":true` on the AI SDK's end marker. This
/// is the one place that names its keys and their order: ps-sse writes records with these bytes
/// (EventRecordOutput), and ps-parts' fast path recognises them with the same bytes
/// (TextDeltaRecord).
public enum EventRecord {
    /// The keys, in the order they are written.
    public static let keys = ["event", "id", "data", "retry", "done"]

    /// `{"event":` — a record's first bytes; the event's name follows.
    public static let eventKey = opening(0)
    /// `,"id":` — the last event ID follows.
    public static let idKey = member(1)
    /// `,"data":` — the data follows: its JSON value, or its text as a string.
    public static let dataKey = member(2)
    /// `,"retry":` — the reconnection time follows.
    public static let retryKey = member(3)
    /// `,"done":true` — after the data `"[DONE]"`.
    public static let doneMark = member(4) + Array("true".utf8)

    /// `{"event":"NAME","id":` — the fixed start of every record of event `name`.
    public static func start(event name: String) -> [UInt8] {
        var bytes = eventKey
        JSON.writeString(name, to: &bytes)
        return bytes + idKey
    }

    private static func quoted(_ index: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        JSON.writeString(keys[index], to: &bytes)
        return bytes + [UInt8(ascii: ":")]
    }

    private static func opening(_ index: Int) -> [UInt8] { [UInt8(ascii: "{")] + quoted(index) }
    private static func member(_ index: Int) -> [UInt8] { [UInt8(ascii: ",")] + quoted(index) }
}
