/// An incremental parser of the AI SDK v4 data stream (`x-vercel-ai-data-stream: v1`): not SSE,
/// but one `CODE:JSON` line per part, where CODE is one character (`0` text, `9` tool call,
/// `d` finish, ...). Lines end with LF (a CR before it is dropped); blank lines are skipped; a
/// leading UTF-8 BOM is stripped.
public struct DataStreamParser {
    /// One good line. `text` borrows the parser's input: valid only inside the callback.
    public struct Line {
        /// The type code, one of `0-9` or `a-z`, as a string ("0", "d").
        public let code: String
        /// The decoded JSON value after the colon.
        public let value: JSON
        /// The whole line as it was, without its line end.
        public let text: UnsafeRawBufferPointer
        public let lineNumber: Int
    }

    /// What a line turned out to be.
    public enum Item {
        case line(Line)
        /// Not a `CODE:JSON` line; `reason` says what is wrong.
        case malformed(lineNumber: Int, reason: String)
    }

    private var splitter: LineSplitter
    private var atStart = true

    /// A line longer than `limits` allows throws RecordTooLong.
    public init(limits: InputLimits = .current) { splitter = LineSplitter(limits: limits) }

    /// Whether `line` (without its line end) is a data-stream line: a code in `0-9a-z`, a colon,
    /// then one JSON text. Used to tell this format from SSE by its first line.
    public static func isDataStreamLine(_ line: UnsafeRawBufferPointer) -> Bool {
        guard hasCode(line) else { return false }
        return JSONSyntax.isValid(UnsafeRawBufferPointer(rebasing: line[2...]))
    }

    private static func hasCode(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.count >= 2, line[1] == UInt8(ascii: ":") else { return false }
        let code = line[0]
        return (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7A)
    }

    /// The start of a bad line, quoted, for a message.
    private static func excerpt(_ line: UnsafeRawBufferPointer) -> String {
        let limit = 40
        let text = String(decoding: line.prefix(limit), as: UTF8.self)
        return JSON.string(text).serialized() + (line.count > limit ? "..." : "")
    }

    /// Parses a chunk, calling `body` for each complete line.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (Item) throws -> Void) throws {
        var atStart = self.atStart
        defer { self.atStart = atStart }
        try splitter.feed(chunk) { line, number in
            try Self.handle(line, number, stripBOM: &atStart, body)
        }
    }

    /// Ends the stream: handles a last line that has no line end. Returns whether there was one,
    /// which means the stream may have been cut off.
    @discardableResult
    public mutating func finish(_ body: (Item) throws -> Void) rethrows -> Bool {
        var atStart = self.atStart
        let hadPartialLine = try splitter.finish { line, number in
            try Self.handle(line, number, stripBOM: &atStart, body)
        }
        self = DataStreamParser(limits: splitter.limits)
        return hadPartialLine
    }

    private static func handle(
        _ line: UnsafeRawBufferPointer, _ number: Int, stripBOM: inout Bool, _ body: (Item) throws -> Void
    ) rethrows {
        var line = line
        if stripBOM {
            stripBOM = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = UnsafeRawBufferPointer(rebasing: line[3...]) }
        }
        if line.last == 0x0D { line = UnsafeRawBufferPointer(rebasing: line.dropLast()) }
        if line.isEmpty { return }
        guard hasCode(line) else {
            try body(.malformed(lineNumber: number, reason: "expected CODE:JSON, got \(excerpt(line))"))
            return
        }
        let code = String(Character(Unicode.Scalar(line[0])))
        let json = UnsafeRawBufferPointer(rebasing: line[2...])
        switch Result(catching: { try JSON.parse(json) }) {
        case .success(let value):
            try body(.line(Line(code: code, value: value, text: line, lineNumber: number)))
        case .failure(let error):
            let detail = (error as? JSONParseError)?.message ?? String(describing: error)
            try body(.malformed(lineNumber: number, reason: "not JSON after \"\(code):\": \(detail)"))
        }
    }
}
