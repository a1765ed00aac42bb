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

    public init() {
        stream = MessageStream { [unowned self] event in
            if case .ended(let assembler, let status) = event, self.status == nil {
                var message = assembler.message
                if case .incomplete(let reason, let detail, _) = status, case .object(var object) = message {
                    object["incomplete"] = .object(JSONObject([("reason", .string(reason.rawValue)), ("detail", .string(detail))]))
                    message = .object(object)
                }
                self.reply = message
                self.status = status
            }
        }
    }

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

    /// The end of the body.
    public func finish() {
        try? stream.finish()
    }
}
