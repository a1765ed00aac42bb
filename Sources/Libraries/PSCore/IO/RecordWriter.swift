#if canImport(Glibc)
import Glibc
#endif

/// Writes NDJSON records (or any output) to a file descriptor, each record flushed as it is made:
/// `write`, `writeText` and `writeRaw` at once, one write(2) each; records `append`ed while one
/// read of input is handled go out together at `flush()`, which the command calls before it reads
/// again, so a burst costs one write(2) and nothing waits for more input. A closed pipe throws
/// ExitRequest(.brokenPipe) (the command ends quietly with 141); any other write error (a full
/// disk) a ToolError.
///
/// Every NDJSON line of the toolkit is written here. On a terminal, the C1 and bidi controls in
/// its strings go out as `\u` escapes (`JSON.escapingTerminalControls`): the same JSON, and
/// nothing a terminal acts on. In a pipe or a file the bytes are as made.
public final class RecordWriter {
    public let fd: Int32
    private let escapesControls: Bool
    private var buffer: [UInt8] = []
    private var pending: [UInt8] = []

    /// A key and value set on every JSON object written (ps-history's "origin"), also by those
    /// who build records to write later (`stamped`).
    public var stamp: (key: String, value: JSON)?

    public init(fd: Int32 = 1) {
        self.fd = fd
        escapesControls = fd >= 0 && Terminal.isTerminal(fd)
        buffer.reserveCapacity(4096)
        pending.reserveCapacity(64 * 1024)
    }

    /// The value with the stamp set, when it is an object and there is a stamp.
    public func stamped(_ value: JSON) -> JSON {
        guard let stamp, case .object(var object) = value else { return value }
        object[stamp.key] = stamp.value
        return .object(object)
    }

    /// Writes one JSON value as a line.
    public func write(_ value: JSON) throws {
        try flush()
        buffer.removeAll(keepingCapacity: true)
        stamped(value).write(to: &buffer)
        buffer.append(0x0A)
        try buffer.withUnsafeBytes { try writeRecords($0) }
    }

    /// Writes whole NDJSON lines, made elsewhere (a spooled page), all or none into a file: when
    /// the write fails (a full disk), the part of them written is cut off again, so the file
    /// holds no broken line and no part of a page that a rerun would write again.
    public func writeRecords(_ bytes: UnsafeRawBufferPointer) throws {
        try flush()
        let start = fileEnd()
        do {
            try writeLines(bytes)
        } catch let error as ToolError {
            if let start { _ = ftruncate(fd, start) }
            throw error
        }
    }

    /// Flushes what was written to a file to the disk (some file systems report a full disk
    /// only then); nothing for a pipe or a terminal.
    public func sync() throws {
        guard fileEnd() != nil, fsync(fd) != 0, errno != EINVAL, errno != EROFS else { return }
        throw ToolError(.failure, "cannot write to \(outputName): \(String(cString: strerror(errno)))")
    }

    /// Where the next write to a regular file lands (its end when opened to append, as by >>);
    /// nil for a pipe or a terminal.
    private func fileEnd() -> off_t? {
        var info = stat()
        guard fd >= 0, fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        if fcntl(fd, F_GETFL) & O_APPEND != 0 { return info.st_size }
        let position = lseek(fd, 0, SEEK_CUR)
        return position >= 0 ? position : nil
    }

    /// The output's name in messages: the file's path, else "standard output".
    private var outputName: String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count)
        guard count > 0, buffer[0] == UInt8(ascii: "/") else { return fd == 1 ? "standard output" : "the output" }
        return TerminalSafeText.sanitize(String(decoding: buffer[..<count], as: UTF8.self))
    }

    /// Writes text as it is (no newline added).
    public func writeText(_ text: String) throws {
        try flush()
        var text = text
        try text.withUTF8 { try check(FileDescriptorOutput.writeAll(fd: fd, UnsafeRawBufferPointer($0))) }
    }

    /// Writes bytes as they are (text that is not NDJSON: a rendered reply).
    public func writeRaw(_ bytes: UnsafeRawBufferPointer) throws {
        try flush()
        try check(FileDescriptorOutput.writeAll(fd: fd, bytes))
    }

    /// Adds complete records to those written at the next `flush()`.
    public func append(_ build: (inout [UInt8]) throws -> Void) rethrows {
        try build(&pending)
    }

    /// Takes what was appended and not yet written, for a reader in the same process.
    public func takePending() -> [UInt8] {
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }

    /// Bytes appended and not yet written.
    public var pendingCount: Int { pending.count }

    /// Writes what was appended since the last flush.
    public func flush() throws {
        guard !pending.isEmpty else { return }
        defer { pending.removeAll(keepingCapacity: pending.capacity <= 1 << 20) }
        try pending.withUnsafeBytes { try writeLines($0) }
    }

    private func writeLines(_ bytes: UnsafeRawBufferPointer) throws {
        if escapesControls, let escaped = JSON.escapingTerminalControls(bytes) {
            return try check(FileDescriptorOutput.writeAll(fd: fd, escaped))
        }
        try check(FileDescriptorOutput.writeAll(fd: fd, bytes))
    }

    private func check(_ error: Int32) throws {
        guard error != 0 else { return }
        if error == EPIPE { throw ExitRequest(.brokenPipe) }
        throw ToolError(.failure, "cannot write to \(outputName): \(String(cString: strerror(error)))")
    }
}
