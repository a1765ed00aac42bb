/// Feeds the input to the parser of its format, writes a record per event, and at the end says
/// whether the stream was whole (ps-sse's work).
public struct StreamTranslator {
    /// What the input is.
    public enum Format: String, CaseIterable, Sendable {
        /// Decide from the first non-empty line.
        case auto
        /// A text/event-stream body.
        case sse
        /// The AI SDK v4 data stream (`CODE:JSON` lines).
        case dataStream = "data-stream"
    }

    /// Per-line complaints about malformed lines stop after this many; the summary counts all.
    static let reportedMalformedLines = 10
    /// The most of a first line `auto` holds while it waits for the line's end. Such a line begins
    /// `CODE:` (anything else is SSE at once), which SSE would ignore as an unknown field: past
    /// this length it is taken for a data-stream line, the one reading that gives it a meaning.
    static let undecidedLimit = 1 << 20

    private let inputName: String
    private let output: EventRecordOutput
    private var format: Format
    /// The input not yet given to a parser while the format is being detected: the first
    /// non-blank line so far. The byte order mark and blank lines before it go to both parsers
    /// at once (they mean the same to both), so this never holds more than that line.
    private var undecided: [UInt8] = []
    private var atStreamStart = true
    /// How many bytes of `undecided` were already searched for a line end.
    private var scanned = 0
    private var sse = SSEParser()
    private var dataStream = DataStreamParser()
    private var malformedLines = 0
    /// A class so that `write` (a parser's callback) can note it.
    private final class Flag { var value = false }
    private let invalidUTF8 = Flag()

    public init(format: Format, output: EventRecordOutput, inputName: String) {
        self.format = format
        self.output = output
        self.inputName = inputName
    }

    /// A line or event longer than InputLimits allows throws exit 3, after the records before it.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) throws {
        do {
            switch format {
            case .sse:
                try feedSSE(chunk)
            case .dataStream:
                try feedDataStream(chunk)
            case .auto:
                undecided.append(contentsOf: chunk)
                if let detected = try detect(atEnd: false) { try start(detected) }
            }
        } catch let tooLong as RecordTooLong {
            throw tooLong.inputError(inputName)
        }
    }

    /// Gives the chunk to the SSE parser. Its callback holds only what it uses, not a copy of the
    /// translator: a copy would share the parser's held line, which the parser then copies.
    private mutating func feedSSE(_ chunk: UnsafeRawBufferPointer) throws {
        let output = self.output, inputName = self.inputName, invalidUTF8 = self.invalidUTF8
        try sse.feed(chunk) { Self.write($0, output: output, inputName: inputName, invalidUTF8: invalidUTF8) }
    }

    /// Writes an event's record; says once when its data was not UTF-8 (U+FFFD replaces it).
    private static func write(_ event: SSEParser.Event, output: EventRecordOutput, inputName: String, invalidUTF8: Flag) {
        if !invalidUTF8.value, !UTF8Check.isValid(event.data) {
            invalidUTF8.value = true
            Diagnostics.warning(
                "\(inputName): the event begun on line \(event.line) is not valid UTF-8: its invalid bytes "
                    + "became U+FFFD (said only for the first such event)")
        }
        output.write(event)
    }

    /// Ends the input: a truncated SSE stream or any malformed data-stream line is an error
    /// (thrown after every good record was written).
    public mutating func finish() throws {
        do {
            if format == .auto { try start(try detect(atEnd: true) ?? .sse) }
        } catch let tooLong as RecordTooLong {
            throw tooLong.inputError(inputName)
        }
        switch format {
        case .sse, .auto:
            if let unterminated = sse.finish() {
                throw ToolError(
                    .incomplete,
                    "\(inputName): the stream ended inside the event begun on line \(unterminated.line) "
                        + "(no blank line after it); that event was dropped")
            }
        case .dataStream:
            let output = self.output
            var malformed = malformedLines
            let cutOff = dataStream.finish { item in
                Self.handle(item, output: output, malformedLines: &malformed, inputName: inputName)
            }
            malformedLines = malformed
            if malformedLines > 0 {
                let lines = malformedLines == 1 ? "1 malformed line was" : "\(malformedLines) malformed lines were"
                throw ToolError(.malformedInput, "\(inputName): \(lines) skipped")
            }
            if cutOff {
                throw ToolError(.incomplete, "\(inputName): the last line has no line end: the stream was cut off")
            }
        }
    }

    private mutating func start(_ detected: Format) throws {
        format = detected
        var buffered: [UInt8] = []
        swap(&buffered, &undecided)
        try buffered.withUnsafeBytes { chunk in
            switch detected {
            case .dataStream: try feedDataStream(chunk)
            default: try feedSSE(chunk)
            }
        }
    }

    /// Gives `count` leading bytes of `undecided` to both parsers and drops them. They are a byte
    /// order mark or line ends, which neither parser turns into records.
    private mutating func feedBoth(_ count: Int) throws {
        guard count > 0 else { return }
        try undecided.withUnsafeBytes { bytes in
            let prefix = UnsafeRawBufferPointer(rebasing: bytes[..<count])
            try sse.feed(prefix) { _ in }
            try dataStream.feed(prefix) { _ in }
        }
        undecided.removeFirst(count)
        scanned = 0
    }

    /// The v4 data stream when the first non-empty line is `CODE:JSON`, SSE otherwise; nil while
    /// that is not known yet.
    private mutating func detect(atEnd: Bool) throws -> Format? {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        if atStreamStart {
            if undecided.starts(with: bom) {
                try feedBoth(3)
            } else if !atEnd && undecided.count < 3 && bom.starts(with: undecided) {
                return nil
            }
            atStreamStart = false
        }
        let isLineEnd = { (byte: UInt8) in byte == 0x0A || byte == 0x0D }
        try feedBoth(undecided.firstIndex { !isLineEnd($0) } ?? undecided.count)
        if undecided.isEmpty { return atEnd ? .sse : nil }
        // Two bytes that are not a type code and a colon settle it at once.
        if undecided.count >= 2 {
            let code = undecided[0]
            let isCode = (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7A)
            if !isCode || undecided[1] != UInt8(ascii: ":") { return .sse }
        }
        var end = undecided.count
        if let lineEnd = undecided[scanned...].firstIndex(where: isLineEnd) {
            end = lineEnd
        } else if undecided.count > Self.undecidedLimit {
            return .dataStream
        } else if !atEnd {
            scanned = undecided.count
            return nil
        }
        return undecided.withUnsafeBytes { bytes in
            DataStreamParser.isDataStreamLine(UnsafeRawBufferPointer(rebasing: bytes[..<end])) ? .dataStream : .sse
        }
    }

    private mutating func feedDataStream(_ chunk: UnsafeRawBufferPointer) throws {
        let output = self.output
        let inputName = self.inputName
        var malformed = malformedLines
        defer { malformedLines = malformed }
        try dataStream.feed(chunk) { item in
            Self.handle(item, output: output, malformedLines: &malformed, inputName: inputName)
        }
    }

    private static func handle(
        _ item: DataStreamParser.Item, output: EventRecordOutput, malformedLines: inout Int, inputName: String
    ) {
        switch item {
        case .line(let line):
            output.write(line)
        case .malformed(let lineNumber, let reason):
            malformedLines += 1
            if malformedLines <= reportedMalformedLines {
                Diagnostics.error("\(inputName): line \(lineNumber): not a data-stream line: \(reason)")
            }
        }
    }
}
