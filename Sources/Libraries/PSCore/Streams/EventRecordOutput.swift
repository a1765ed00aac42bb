/// Writes ps-ndjson(5) event records (EventRecord), one line per event. Records are appended to
/// the writer as their events complete and go out at its `flush()`, which ps-sse calls after each
/// read of input: each record reaches the next command before ps-sse waits for more.
public final class EventRecordOutput {
    /// `data` is always the exact string, never decoded.
    public let raw: Bool
    public let writer: RecordWriter

    private static let dataStreamStart = EventRecord.start(event: "data-stream") + Array(#""""#.utf8) + EventRecord.dataKey
    private static let codeKey = Array(#"{"code":"#.utf8)
    private static let valueKey = Array(#","value":"#.utf8)

    public init(raw: Bool, writer: RecordWriter = RecordWriter()) {
        self.raw = raw
        self.writer = writer
    }

    public func write(_ event: SSEParser.Event) {
        writer.append { Self.encode(event, raw: raw, into: &$0) }
    }

    public func write(_ line: DataStreamParser.Line) {
        writer.append { Self.encode(line, raw: raw, into: &$0) }
    }

    /// Writes the records made so far.
    public func flush() throws {
        try writer.flush()
    }

    public static func encode(_ event: SSEParser.Event, raw: Bool, into record: inout [UInt8]) {
        record.append(contentsOf: EventRecord.eventKey)
        JSON.writeString(event.type, to: &record)
        record.append(contentsOf: EventRecord.idKey)
        JSON.writeString(event.lastEventId, to: &record)
        record.append(contentsOf: EventRecord.dataKey)
        let done = event.data.count == 6 && event.data.elementsEqual("[DONE]".utf8)
        if raw || done {
            JSON.writeString(event.dataString, to: &record)
        } else {
            appendData(event.data, to: &record)
        }
        if let retry = event.retry {
            record.append(contentsOf: EventRecord.retryKey)
            record.append(contentsOf: String(retry).utf8)
        }
        if done { record.append(contentsOf: EventRecord.doneMark) }
        record.append(UInt8(ascii: "}"))
        record.append(0x0A)
    }

    public static func encode(_ line: DataStreamParser.Line, raw: Bool, into record: inout [UInt8]) {
        record.append(contentsOf: dataStreamStart)
        if raw {
            JSON.writeString(String(decoding: line.text, as: UTF8.self), to: &record)
        } else {
            record.append(contentsOf: codeKey)
            JSON.writeString(line.code, to: &record)
            record.append(contentsOf: valueKey)
            line.value.write(to: &record)
            record.append(UInt8(ascii: "}"))
        }
        record.append(UInt8(ascii: "}"))
        record.append(0x0A)
    }

    /// The data as a JSON value when it is one JSON text, else as a string. JSON on one line is
    /// copied as it is (after trimming whitespace around it): already valid, and it cannot break
    /// the record's line. Only JSON spread over several lines is decoded and written compactly.
    private static func appendData(_ data: UnsafeRawBufferPointer, to record: inout [UInt8]) {
        let text = trimmingJSONWhitespace(data)
        if let first = text.first, canStartJSON(first) {
            if !text.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
                if TextDeltaRecord.isChunk(text) || JSONSyntax.isValid(text) {
                    record.append(contentsOf: text)
                    return
                }
            } else if let value = try? JSON.parse(text) {
                value.write(to: &record)
                return
            }
        }
        JSON.writeString(String(decoding: data, as: UTF8.self), to: &record)
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func trimmingJSONWhitespace(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0, end = bytes.count
        while start < end && isJSONWhitespace(bytes[start]) { start += 1 }
        while end > start && isJSONWhitespace(bytes[end - 1]) { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    /// Saves checking plain text for JSON: a JSON text starts with one of these bytes.
    private static func canStartJSON(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            return true
        default:
            return false
        }
    }
}
