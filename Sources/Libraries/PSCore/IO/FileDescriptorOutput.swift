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
