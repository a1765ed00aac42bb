import PSCore

/// Writes ps-ndjson(5) event records: one line, one write(2) per event, so each record reaches
/// the next command as soon as its event is complete.
final class EventRecordOutput {
    /// `data` is always the exact string, never decoded.
    let raw: Bool
    private let writer: RecordWriter
    private var buffer: [UInt8] = []

    // The fixed parts of a record, as bytes once.
    private static let eventKey = Array(#"{"event":"#.utf8)
    private static let idKey = Array(#","id":"#.utf8)
    private static let dataKey = Array(#","data":"#.utf8)
    private static let retryKey = Array(#","retry":"#.utf8)
    private static let doneMark = Array(#","done":true"#.utf8)
    private static let dataStreamStart = Array(#"{"event":"data-stream","id":"","data":"#.utf8)
    private static let codeKey = Array(#"{"code":"#.utf8)
    private static let valueKey = Array(#","value":"#.utf8)

    init(raw: Bool, writer: RecordWriter = RecordWriter()) {
        self.raw = raw
        self.writer = writer
        buffer.reserveCapacity(4096)
    }

    func write(_ event: SSEParser.Event) throws {
        try write { Self.encode(event, raw: raw, into: &$0) }
    }

    func write(_ line: DataStreamParser.Line) throws {
        try write { Self.encode(line, raw: raw, into: &$0) }
    }

    /// Builds a record in the reused buffer and writes it. The buffer is moved out while it is
    /// filled: one exclusive access to the property per record instead of one per append.
    private func write(_ build: (inout [UInt8]) -> Void) throws {
        var record: [UInt8] = []
        swap(&record, &buffer)
        defer { swap(&record, &buffer) }
        record.removeAll(keepingCapacity: true)
        build(&record)
        try record.withUnsafeBytes { try writer.writeRaw($0) }
    }

    static func encode(_ event: SSEParser.Event, raw: Bool, into record: inout [UInt8]) {
        record.append(contentsOf: eventKey)
        JSON.writeString(event.type, to: &record)
        record.append(contentsOf: idKey)
        JSON.writeString(event.lastEventId, to: &record)
        record.append(contentsOf: dataKey)
        let done = event.data.count == 6 && event.data.elementsEqual("[DONE]".utf8)
        if raw || done {
            JSON.writeString(event.dataString, to: &record)
        } else {
            appendData(event.data, to: &record)
        }
        if let retry = event.retry {
            record.append(contentsOf: retryKey)
            record.append(contentsOf: String(retry).utf8)
        }
        if done { record.append(contentsOf: doneMark) }
        record.append(UInt8(ascii: "}"))
        record.append(0x0A)
    }

    static func encode(_ line: DataStreamParser.Line, raw: Bool, into record: inout [UInt8]) {
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
                if JSONSyntax.isValid(text) {
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
