#if canImport(Glibc)
import Glibc
#endif

/// Reads a file descriptor in chunks as they arrive: read(2) returns as soon as any data is
/// there, so a slow stream is processed with no added delay, and memory stays constant.
public final class ChunkReader {
    public let fd: Int32
    /// Where the input comes from, for messages ("stdin" or a path).
    public let name: String
    private let ownsDescriptor: Bool
    private var buffer: [UInt8]

    public init(fd: Int32, name: String, chunkSize: Int = 64 * 1024, ownsDescriptor: Bool = false) {
        self.fd = fd
        self.name = name
        self.ownsDescriptor = ownsDescriptor
        self.buffer = [UInt8](repeating: 0, count: chunkSize)
    }

    /// Opens `path`, or stdin for nil or "-".
    public static func open(path: String?) throws -> ChunkReader {
        guard let path, path != "-" else { return ChunkReader(fd: 0, name: "stdin") }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw ToolError(.failure, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        return ChunkReader(fd: fd, name: path, ownsDescriptor: true)
    }

    deinit {
        if ownsDescriptor { close(fd) }
    }

    /// Reads what is there (waiting for something if nothing is) and calls `body` with it.
    /// Returns false at the end of input. The buffer is reused: copy what you keep.
    public func readChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ToolError(.failure, "cannot read \(name): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return false }
            try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            return true
        }
    }

    /// Calls `body` with each chunk until end of input. The buffer is reused: copy what you keep.
    public func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        while try readChunk(body) {}
    }
}

/// Splits chunks into lines ending in LF (a CR before the LF is kept: callers decide). The final
/// line is delivered at `finish()` even without a newline.
public struct LineSplitter {
    private var pending: [UInt8] = []
    public private(set) var lineNumber = 0

    public init() {}

    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, Int) throws -> Void) rethrows {
        var start = 0
        while let newline = chunk[start...].firstIndex(of: 0x0A) {
            lineNumber += 1
            if pending.isEmpty {
                try body(UnsafeRawBufferPointer(rebasing: chunk[start..<newline]), lineNumber)
            } else {
                pending.append(contentsOf: chunk[start..<newline])
                try pending.withUnsafeBytes { try body($0, lineNumber) }
                pending.removeAll(keepingCapacity: true)
            }
            start = newline + 1
        }
        if start < chunk.count { pending.append(contentsOf: chunk[start...]) }
    }

    /// Delivers an unterminated last line, if any. Returns whether there was one.
    @discardableResult
    public mutating func finish(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) rethrows -> Bool {
        guard !pending.isEmpty else { return false }
        lineNumber += 1
        try pending.withUnsafeBytes { try body($0, lineNumber) }
        pending.removeAll()
        return true
    }
}

/// Reads NDJSON: one JSON value a line, blank lines skipped, a line that is not JSON reported with
/// its number.
public struct NDJSONReader {
    public let reader: ChunkReader

    public init(_ reader: ChunkReader) { self.reader = reader }

    /// Calls `body` with each value and its line number. A bad line throws a malformed-input error
    /// naming the input and line, after every good line before it was handled.
    public func forEach(_ body: (JSON, Int) throws -> Void) throws {
        var splitter = LineSplitter()
        let name = reader.name
        func handle(_ line: UnsafeRawBufferPointer, _ number: Int) throws {
            var trimmed = line
            while let last = trimmed.last, last == 0x0D || last == 0x20 || last == 0x09 {
                trimmed = UnsafeRawBufferPointer(rebasing: trimmed.dropLast())
            }
            if trimmed.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
            let value: JSON
            do { value = try JSON.parse(trimmed) } catch let error as JSONParseError {
                throw ToolError(.malformedInput, "\(name): line \(number): not JSON: \(error.message)")
            }
            try body(value, number)
        }
        try reader.forEachChunk { chunk in try splitter.feed(chunk, handle) }
        try splitter.finish(handle)
    }
}
