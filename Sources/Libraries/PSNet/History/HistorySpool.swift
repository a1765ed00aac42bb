import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// Pages of records kept on disk while an export walks back through a conversation, so that
/// memory stays flat whatever the conversation's length; read back newest page last. The
/// file is unlinked as soon as it is made: nothing is left behind on any exit path.
final class HistorySpool {
    private let fd: Int32
    private var pages: [(offset: Int, count: Int)] = []
    private var end = 0
    private var buffer: [UInt8] = []

    init() throws {
        let folder = Environment.current["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder + "/ps-history-XXXXXX").utf8CString)
        fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw ToolError(.failure, "cannot make a temporary file in \(folder): \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    }

    deinit { close(fd) }

    /// Keeps one page's records (oldest first), each written as one NDJSON line.
    func append(page records: [JSON]) throws {
        buffer.removeAll(keepingCapacity: true)
        for record in records {
            record.write(to: &buffer)
            buffer.append(0x0A)
        }
        var written = 0
        while written < buffer.count {
            let n = buffer.withUnsafeBytes { pwrite(fd, $0.baseAddress! + written, $0.count - written, off_t(end + written)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ToolError(.failure, "cannot write the temporary export file: \(String(cString: strerror(errno)))")
            }
            written += n
        }
        pages.append((end, buffer.count))
        end += buffer.count
    }

    var pageCount: Int { pages.count }

    /// The bytes of the page kept `index`-th (0 = the first kept).
    func page(_ index: Int) throws -> [UInt8] {
        let (offset, count) = pages[index]
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw ToolError(.failure, "cannot read the temporary export file back") }
            done += n
        }
        return bytes
    }
}
