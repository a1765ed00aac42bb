/// Reads NDJSON input a line at a time: each line without its line end and trailing spaces, tabs
/// or CR, blank lines skipped, with its 1-based number. After the lines of each read come
/// `afterRead`, the place to flush what they produced: nothing then waits for more input.
/// A line longer than `limits` allows ends the reading with exit 3 (ToolError), after the lines
/// before it.
public struct RecordLineReader {
    public let reader: ChunkReader
    public let limits: InputLimits

    public init(_ reader: ChunkReader, limits: InputLimits = .current) {
        self.reader = reader
        self.limits = limits
    }

    /// Where the input comes from, for messages ("stdin" or a path).
    public var name: String { reader.name }

    public func forEachLine(
        _ body: (UnsafeRawBufferPointer, Int) throws -> Void, afterRead: () throws -> Void = {}
    ) throws {
        var splitter = LineSplitter(limits: limits)
        func handle(_ line: UnsafeRawBufferPointer, _ number: Int) throws {
            let trimmed = Self.trimmed(line)
            if trimmed.isEmpty { return }
            try body(trimmed, number)
        }
        do {
            try reader.forEachChunk { chunk in
                try splitter.feed(chunk, handle)
                try afterRead()
            }
        } catch let tooLong as RecordTooLong {
            try afterRead()
            throw tooLong.inputError(name)
        }
        if try splitter.finish(handle) { try afterRead() }
    }

    /// The line without trailing CR, spaces and tabs; empty when it holds only those.
    static func trimmed(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var end = line.count
        while end > 0 {
            let byte = line[end - 1]
            guard byte == 0x0D || byte == 0x20 || byte == 0x09 else { break }
            end -= 1
        }
        var start = 0
        while start < end && (line[start] == 0x20 || line[start] == 0x09) { start += 1 }
        if start == end { return UnsafeRawBufferPointer(start: line.baseAddress, count: 0) }
        return UnsafeRawBufferPointer(rebasing: line[0..<end])
    }
}
