import ArgumentParser
import PSCore

/// What the input is.
enum InputFormat: String, CaseIterable, ExpressibleByArgument {
    /// Decide from the first non-empty line.
    case auto
    /// A text/event-stream body.
    case sse
    /// The AI SDK v4 data stream (`CODE:JSON` lines).
    case dataStream = "data-stream"
}

/// Feeds the input to the parser of its format, writes a record per event, and at the end says
/// whether the stream was whole.
struct StreamTranslator {
    /// Per-line complaints about malformed lines stop after this many; the summary counts all.
    static let reportedMalformedLines = 10

    private let inputName: String
    private let output: EventRecordOutput
    private var format: InputFormat
    /// The input so far while the format is being detected (up to the first line end).
    private var undecided: [UInt8] = []
    /// How many leading bytes of `undecided` are known to be a byte order mark and blank lines,
    /// so a flood of line ends is walked once, not again with every chunk.
    private var blankPrefix = 0
    private var sse = SSEParser()
    private var dataStream = DataStreamParser()
    private var malformedLines = 0

    init(format: InputFormat, output: EventRecordOutput, inputName: String) {
        self.format = format
        self.output = output
        self.inputName = inputName
    }

    mutating func feed(_ chunk: UnsafeRawBufferPointer) throws {
        switch format {
        case .sse:
            let output = self.output
            try sse.feed(chunk) { try output.write($0) }
        case .dataStream:
            try feedDataStream(chunk)
        case .auto:
            let scanned = undecided.count
            undecided.append(contentsOf: chunk)
            guard let detected = Self.detectFormat(undecided, scanned: scanned, atEnd: false, blankPrefix: &blankPrefix)
            else { return }
            try start(detected)
        }
    }

    /// Ends the input: a truncated SSE stream or any malformed data-stream line is an error
    /// (thrown after every good record was written).
    mutating func finish() throws {
        if format == .auto {
            try start(Self.detectFormat(undecided, scanned: 0, atEnd: true, blankPrefix: &blankPrefix) ?? .sse)
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
            let cutOff = try dataStream.finish { item in
                try Self.handle(item, output: output, malformedLines: &malformed, inputName: inputName)
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

    private mutating func start(_ detected: InputFormat) throws {
        format = detected
        var buffered: [UInt8] = []
        swap(&buffered, &undecided)
        try buffered.withUnsafeBytes { try feed($0) }
    }

    private mutating func feedDataStream(_ chunk: UnsafeRawBufferPointer) throws {
        let output = self.output
        let inputName = self.inputName
        var malformed = malformedLines
        defer { malformedLines = malformed }
        try dataStream.feed(chunk) { item in
            try Self.handle(item, output: output, malformedLines: &malformed, inputName: inputName)
        }
    }

    private static func handle(
        _ item: DataStreamParser.Item, output: EventRecordOutput, malformedLines: inout Int, inputName: String
    ) throws {
        switch item {
        case .line(let line):
            try output.write(line)
        case .malformed(let lineNumber, let reason):
            malformedLines += 1
            if malformedLines <= reportedMalformedLines {
                Diagnostics.error("\(inputName): line \(lineNumber): not a data-stream line: \(reason)")
            }
        }
    }

    /// The v4 data stream when the first non-empty line is `CODE:JSON`, SSE otherwise; nil while
    /// that is not known yet. `scanned` bytes were already searched for a line end, so a long
    /// first line is not searched again with every chunk; `blankPrefix` leading bytes are known
    /// to be a byte order mark and line ends (updated here), so they are not walked again either.
    static func detectFormat(_ bytes: [UInt8], scanned: Int, atEnd: Bool, blankPrefix: inout Int) -> InputFormat? {
        bytes.withUnsafeBytes { bytes in
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            var start = 0
            if bytes.starts(with: bom) {
                start = 3
            } else if !atEnd && bytes.count < 3 && bom.starts(with: bytes) {
                return nil
            }
            let isLineEnd = { (byte: UInt8) in byte == 0x0A || byte == 0x0D }
            start = max(start, blankPrefix)
            while start < bytes.count && isLineEnd(bytes[start]) { start += 1 }
            blankPrefix = start
            // Two bytes that are not a type code and a colon settle it at once.
            if bytes.count - start >= 2 {
                let code = bytes[start]
                let isCode = (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7A)
                if !isCode || bytes[start + 1] != UInt8(ascii: ":") { return .sse }
            }
            var end = bytes.count
            if let lineEnd = bytes[max(start, scanned)...].firstIndex(where: isLineEnd) {
                end = lineEnd
            } else if !atEnd {
                return nil
            }
            let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            return DataStreamParser.isDataStreamLine(line) ? .dataStream : .sse
        }
    }
}
