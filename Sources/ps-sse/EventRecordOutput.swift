import PSCore

/// Writes ps-ndjson(5) event records: one line, one write(2) per event, so each record reaches
/// the next command as soon as its event is complete.
final class EventRecordOutput {
    /// `data` is always the exact string, never decoded.
    let raw: Bool
    private let writer: RecordWriter
    private var record: [UInt8] = []

    init(raw: Bool, writer: RecordWriter = RecordWriter()) {
        self.raw = raw
        self.writer = writer
        record.reserveCapacity(4096)
    }

    func write(_ event: SSEParser.Event) throws {
        record.removeAll(keepingCapacity: true)
        record.append(contentsOf: #"{"event":"#.utf8)
        JSON.writeString(event.type, to: &record)
        record.append(contentsOf: #","id":"#.utf8)
        JSON.writeString(event.lastEventId, to: &record)
        record.append(contentsOf: #","data":"#.utf8)
        let done = event.data.elementsEqual("[DONE]".utf8)
        if raw || done {
            JSON.writeString(event.dataString, to: &record)
        } else {
            appendData(event.data)
        }
        if let retry = event.retry {
            record.append(contentsOf: #","retry":"#.utf8)
            record.append(contentsOf: String(retry).utf8)
        }
        if done { record.append(contentsOf: #","done":true"#.utf8) }
        record.append(contentsOf: "}\n".utf8)
        try flush()
    }

    func write(_ line: DataStreamParser.Line) throws {
        record.removeAll(keepingCapacity: true)
        record.append(contentsOf: #"{"event":"data-stream","id":"","data":"#.utf8)
        if raw {
            JSON.writeString(String(decoding: line.text, as: UTF8.self), to: &record)
        } else {
            record.append(contentsOf: #"{"code":"#.utf8)
            JSON.writeString(line.code, to: &record)
            record.append(contentsOf: #","value":"#.utf8)
            line.value.write(to: &record)
            record.append(UInt8(ascii: "}"))
        }
        record.append(contentsOf: "}\n".utf8)
        try flush()
    }

    private func flush() throws {
        try record.withUnsafeBytes { try writer.writeRaw($0) }
    }

    /// The data as a JSON value when it is one JSON text, else as a string. JSON on one line is
    /// copied as it is (after trimming whitespace around it): already valid, and it cannot break
    /// the record's line. Only JSON spread over several lines is decoded and written compactly.
    private func appendData(_ data: UnsafeRawBufferPointer) {
        let text = Self.trimmingJSONWhitespace(data)
        if let first = text.first, Self.canStartJSON(first) {
            if !text.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
                if JSONValidator.isValid(text) {
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

    /// Saves asking jansson about plain text: a JSON text starts with one of these bytes.
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
