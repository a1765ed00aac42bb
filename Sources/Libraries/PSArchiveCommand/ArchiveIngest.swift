import PSArchive
import PSCore

/// Stores the records of an input in transactions, each committed when the input has nothing
/// more waiting (so nothing waits in an open transaction for more input: a live follower's
/// records are committed as they come) or when it holds `transactionBytes` of input (a file or a
/// busy pipe: FTS5 writes its pending terms as a new segment at each commit, and fewer, larger
/// ones cost less to write and merge). A line that is not a record is reported (its number and
/// why) and skipped, the others stored, and the ingest ends with exit 3 naming how many were
/// refused: one hostile record costs no good one. A line longer than InputLimits allows is
/// refused before it is held, and ends the ingest, the lines before it committed. Messages go
/// to the store in batches (up to `batchCount` of them, or past `batchBytes` of records, so
/// memory stays flat), each sent before a deletion that follows it, so the order of the input
/// is kept.
struct ArchiveIngest {
    static let batchCount = 1000
    static let batchBytes = 8 << 20
    static let transactionBytes = 16 << 20
    let store: ArchiveStore
    let source: String
    let keepDeleted: Bool

    func run(_ lines: RecordLineReader) throws {
        var open = false
        var batch: [ArchivedMessage] = []
        var batchBytes = 0
        var transactionBytes = 0
        var refused = 0, firstRefused = 0
        func send() throws {
            if !batch.isEmpty { try store.store(batch) }
            batch.removeAll(keepingCapacity: true)
            batchBytes = 0
        }
        func commit() throws {
            try send()
            if open { try store.commit() }
            open = false
            transactionBytes = 0
        }
        func afterRead() throws {
            if transactionBytes < Self.transactionBytes && lines.reader.hasInputWaiting { return }
            try commit()
        }
        do {
            try lines.forEachLine({ line, number in
                let record: ArchiveRecord
                do {
                    record = try ArchiveRecord.read(line, source: source)
                } catch let error as RecordError {
                    Diagnostics.error("\(lines.name): line \(number): \(error.message); skipped")
                    if refused == 0 { firstRefused = number }
                    refused += 1
                    return
                }
                if !open {
                    try store.begin()
                    open = true
                }
                transactionBytes += line.count
                switch record {
                case .message(let message):
                    batch.append(message)
                    batchBytes += message.record.utf8.count
                    if batch.count >= Self.batchCount || batchBytes >= Self.batchBytes { try send() }
                case .deletion(let source, let id):
                    try send()
                    try store.delete(source: source, id: id, keep: keepDeleted)
                case .conversation(let source, let id, let title, let text):  // another table: the batch goes on
                    try store.storeConversation(source: source, id: id, title: title, record: text)
                }
            }, afterRead: afterRead)
            try commit()
            try store.finishIngest()
            if refused > 0 {
                let lines = refused == 1 ? "1 line was" : "\(refused) lines were"
                throw ToolError(.malformedInput, "\(lines) not a record and skipped (the first: line \(firstRefused)); the others are stored")
            }
        } catch let error as ToolError where error.status == .malformedInput {
            try commit()
            throw error
        }
    }
}
