#if canImport(Glibc)
import Glibc
#endif

/// Unbuffered writes straight to a file descriptor. Stdout through stdio is fully buffered when
/// it is a pipe; every record we write must reach the next command at once.
public enum FileDescriptorOutput {
    /// Ignore SIGPIPE so that a closed pipe shows up as EPIPE from write(2), which we handle.
    public static func ignoreBrokenPipeSignal() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Writes every byte, retrying short writes and EINTR. Returns errno on failure, 0 on success.
    @discardableResult
    public static func writeAll(fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard var pointer = bytes.baseAddress else { return 0 }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(fd, pointer, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            remaining -= written
            pointer += written
        }
        return 0
    }

    @discardableResult
    public static func writeAll(fd: Int32, _ bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBytes { writeAll(fd: fd, $0) }
    }
}

/// Writes NDJSON records (or any output) to stdout, one write(2) per record, so each record is
/// flushed as it is made. A closed pipe ends the process quietly with status 141; any other
/// write error (a full disk) is thrown as a ToolError.
public final class RecordWriter {
    public let fd: Int32
    private var buffer: [UInt8] = []

    public init(fd: Int32 = 1) {
        self.fd = fd
        buffer.reserveCapacity(4096)
    }

    /// Writes one JSON value as a line.
    public func write(_ value: JSON) throws {
        buffer.removeAll(keepingCapacity: true)
        value.write(to: &buffer)
        buffer.append(0x0A)
        try flushBuffer()
    }

    /// Writes text as it is (no newline added).
    public func writeText(_ text: String) throws {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: text.utf8)
        try flushBuffer()
    }

    /// Writes bytes as they are.
    public func writeRaw(_ bytes: UnsafeRawBufferPointer) throws {
        try check(FileDescriptorOutput.writeAll(fd: fd, bytes))
    }

    private func flushBuffer() throws {
        try check(buffer.withUnsafeBytes { FileDescriptorOutput.writeAll(fd: fd, $0) })
    }

    private func check(_ error: Int32) throws {
        guard error != 0 else { return }
        if error == EPIPE { exit(ExitStatus.brokenPipe.rawValue) }
        throw ToolError(.failure, "cannot write output: \(String(cString: strerror(error)))")
    }
}
