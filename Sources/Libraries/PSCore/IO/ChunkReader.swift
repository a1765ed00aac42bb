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

    /// Whether a read now would return at once (input waiting, or its end), not wait for more.
    /// A regular file always has input waiting.
    public var hasInputWaiting: Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1
    }

    /// Calls `body` with each chunk until end of input. The buffer is reused: copy what you keep.
    public func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        while try readChunk(body) {}
    }
}
