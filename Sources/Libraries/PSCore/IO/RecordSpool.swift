#if canImport(Glibc)
import Glibc
#endif

/// Groups of NDJSON records kept on disk rather than in memory (the pages of an export walked
/// backwards, the jobs of a batch), read back by their number in any order, from any thread
/// once written. The file is unlinked as soon as it is made: nothing is left behind on any
/// exit path.
public final class RecordSpool: @unchecked Sendable {
    private let fd: Int32
    private var groups: [(offset: Int, count: Int)] = []
    private var end = 0
    private var buffer: [UInt8] = []

    /// `name` starts the temporary file's name (`ps-history`), in $TMPDIR or /tmp.
    public init(name: String) throws {
        let folder = Environment.current["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder + "/\(name)-XXXXXX").utf8CString)
        fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw ToolError(.failure, "cannot make a temporary file in \(folder): \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    }

    deinit { close(fd) }

    /// Keeps one group of records, each written as one NDJSON line. Not while groups are read.
    public func append(_ records: [JSON]) throws {
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
                throw ToolError(.failure, "cannot write the temporary file: \(String(cString: strerror(errno)))")
            }
            written += n
        }
        groups.append((end, buffer.count))
        end += buffer.count
    }

    public var count: Int { groups.count }

    /// The bytes of the group kept `index`-th (0 = the first kept).
    public func group(_ index: Int) throws -> [UInt8] {
        let (offset, count) = groups[index]
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw ToolError(.failure, "cannot read the temporary file back") }
            done += n
        }
        return bytes
    }
}
