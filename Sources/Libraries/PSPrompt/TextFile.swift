import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// A small UTF-8 text file read whole (a template, a schema), refused past `limit` bytes.
enum TextFile {
    static let limit = 1_048_576

    /// The file's text; `what` names it in errors (`--template x.md`). A file that cannot be
    /// read, is too large or is not UTF-8 is a usage error: it comes from the command line.
    static func read(_ path: String, what: String) throws -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ToolError(.usage, "\(what): cannot read it: \(String(cString: strerror(errno)))") }
        let reader = ChunkReader(fd: fd, name: path, chunkSize: 16 * 1024, ownsDescriptor: true)
        var bytes: [UInt8] = []
        do {
            try reader.forEachChunk { chunk in
                bytes.append(contentsOf: chunk)
                if bytes.count > limit { throw ToolError(.usage, "\(what): over \(limit) bytes, too large") }
            }
        } catch let error as ToolError where error.status == .failure {
            throw ToolError(.usage, "\(what): \(error.message)")  // a directory: EISDIR
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ToolError(.usage, "\(what): not UTF-8 text")
        }
        return text
    }
}
