/// Writes the records of ps-ndjson(5) for what MessageStream reports: part records (the
/// incremental form) or message records (the final form). Each call appends complete lines.
public struct PartRecords {
    /// Only whole messages at their end (`ps-parts --final`), instead of part records.
    public var final: Bool

    public init(final: Bool) { self.final = final }

    /// Appends the line(s) for `event` to `out` (nothing when the event has no record).
    public func write(_ event: MessageEvent, to out: inout [UInt8]) {
        switch event {
        case .started(let message):
            guard !final else { return }
            out.append(contentsOf: #"{"type":"message-start","messageId":"#.utf8)
            JSON.writeString(message.id, to: &out)
            out.append(contentsOf: #","role":"assistant"}"#.utf8)
            out.append(0x0A)
        case .changed(let message, let changes):
            guard !final else { return }
            for change in changes { write(change, message, to: &out) }
        case .streamError(let text, _):
            guard !final else { return }
            out.append(contentsOf: #"{"type":"stream-error","errorText":"#.utf8)
            JSON.writeString(text, to: &out)
            out.append(contentsOf: "}\n".utf8)
        case .ended(let message, let status):
            if final {
                var extra: [(String, JSON)] = []
                if case .incomplete(let reason, let detail, _) = status {
                    extra.append(("incomplete", ["reason": .string(reason.rawValue), "detail": .string(detail)]))
                }
                message.writeMessage(to: &out, extra: extra)
                out.append(0x0A)
                return
            }
            out.append(contentsOf: #"{"type":"message-end","message":"#.utf8)
            message.writeMessage(to: &out)
            switch status {
            case .complete:
                out.append(contentsOf: #","status":"complete"}"#.utf8)
            case .incomplete(let reason, let detail, _):
                out.append(contentsOf: #","status":"incomplete","reason":"#.utf8)
                JSON.writeString(reason.rawValue, to: &out)
                out.append(contentsOf: #","detail":"#.utf8)
                JSON.writeString(detail, to: &out)
                out.append(UInt8(ascii: "}"))
            }
            out.append(0x0A)
        case .whole(let message):
            message.write(to: &out)
            out.append(0x0A)
        }
    }

    private func write(_ change: MessageChange, _ message: MessageAssembler, to out: inout [UInt8]) {
        switch change {
        case .partAdded(let index), .partChanged(let index):
            guard index < message.parts.count else { return }
            let type = change == .partAdded(index) ? "part-start" : "part-update"
            out.append(contentsOf: #"{"type":""#.utf8)
            out.append(contentsOf: type.utf8)
            out.append(contentsOf: #"","index":"#.utf8)
            out.append(contentsOf: String(index).utf8)
            out.append(contentsOf: #","part":"#.utf8)
            message.parts[index].write(to: &out)
        case .textAppended(let index, let delta):
            out.append(contentsOf: #"{"type":"part-delta","index":"#.utf8)
            out.append(contentsOf: String(index).utf8)
            out.append(contentsOf: #","delta":"#.utf8)
            JSON.writeString(delta, to: &out)
        case .partsRemoved(let index):
            out.append(contentsOf: #"{"type":"parts-reset","index":"#.utf8)
            out.append(contentsOf: String(index).utf8)
        case .metadataChanged:
            out.append(contentsOf: #"{"type":"metadata","metadata":"#.utf8)
            (message.metadata ?? .object(JSONObject())).write(to: &out)
        case .idChanged:
            return  // the id is in message-start, and in message-end's message
        }
        out.append(contentsOf: "}\n".utf8)
    }
}
