#if canImport(Glibc)
import Glibc
#endif

/// Finding one byte in a buffer with libc's memchr: a scan for newlines or brackets over a long
/// text.
public enum ByteSearch {
    /// The offset of the first `byte` in `bytes` at or after `from`, or nil.
    @inline(__always)
    public static func first(_ byte: UInt8, in bytes: UnsafeRawBufferPointer, from: Int = 0) -> Int? {
        guard let base = bytes.baseAddress, from < bytes.count,
            let found = memchr(base + from, Int32(byte), bytes.count - from)
        else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }
}
