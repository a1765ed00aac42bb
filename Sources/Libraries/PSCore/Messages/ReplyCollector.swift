/// Rebuilds the assistant's reply from a response body as it streams (Server-Sent Events in any
/// format ps-parts reads), for clients that keep the conversation themselves: what ps-sse and
/// ps-parts --final would make of the same bytes.
public final class ReplyCollector {
    private var parser = SSEParser()
    private var stream: MessageStream!
    private var line = 0
    /// The reply, once it ended (or the body did), and how it ended.
    public private(set) var reply: JSON?
    public private(set) var status: MessageStatus?
    /// The tools a finished reply asks for and that got no result (PendingToolCalls): the
    /// reply then waits for a tool, and is kept marked `incomplete` with reason `waiting-for-tool`.
    public private(set) var waitingForTools: [String] = []
    /// Why the body stopped early, when its reader did (`finish(cutShort:)`).
    private var cutShort: String?

    public init() {
        stream = MessageStream { [unowned self] event in
            if case .ended(let assembler, let status) = event, self.status == nil {
                var message = assembler.message
                var marker: (reason: String, detail: String)?
                switch status {
                case .incomplete(let reason, let detail, _):
                    marker = (reason.rawValue, reason == .noFinish ? self.cutShort ?? detail : detail)
                case .complete:
                    self.waitingForTools = PendingToolCalls.names(in: message)
                    if !self.waitingForTools.isEmpty { marker = ("waiting-for-tool", PendingToolCalls.detail(self.waitingForTools)) }
                }
                if let marker, case .object(var object) = message {
                    object["incomplete"] = .object(JSONObject([("reason", .string(marker.reason)), ("detail", .string(marker.detail))]))
                    message = .object(object)
                }
                self.reply = message
                self.status = status
            }
        }
    }

    /// The reply as it stands: the ended one, else the one still streaming.
    public var messageSoFar: JSON? { reply ?? stream.messageSoFar }

    /// Takes the next bytes of the body. A part that is not an event ps-parts reads is skipped:
    /// the bytes still reach the user, who sees what ps-parts says of them. A line or event
    /// longer than InputLimits allows throws RecordTooLong.
    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        try parser.feed(bytes) { event in
            line += 1
            let data = event.dataString
            let record: JSON = ["event": .string(event.type), "data": (try? JSON.parse(data)) ?? .string(data)]
            try? stream.consume(record, line: line)
        }
    }

    /// The end of the body; `cutShort` says why it ended early (the reply then unfinished
    /// is kept with that as its `incomplete` detail).
    public func finish(cutShort: String? = nil) {
        if status == nil, let cutShort { self.cutShort = cutShort }
        try? stream.finish()
    }
}
