import PSArchive
import PSArchivePostgres
import PSCore

/// `ps-archive-postgres --serve-search` (ps-search's SearchHelper runs it): reads one
/// request from standard input, searches the archive it names, and writes the hits and any
/// failure as SearchWire lines, a failure also as the exit status (and not on standard error:
/// ps-search reports it as its own).
enum SearchService {
    static func run() throws {
        var request: (db: String, query: ArchiveQuery)?
        let writer = RecordWriter()
        do {
            try RecordLineReader(ChunkReader(fd: 0, name: "stdin")).forEachLine { line, _ in
                if request == nil { request = try SearchWire.readRequest(line) }
            }
            guard let (db, query) = request else { throw ToolError(.usage, "\(SearchHelper.argument): no search request on stdin") }
            try ArchiveStores.open(db, create: false).search(query) { hit in
                try writer.write(SearchWire.hit(hit))
            }
        } catch let error as ToolError {
            try writer.write(SearchWire.failure(error))
            throw ExitRequest(error.status)
        }
    }
}
