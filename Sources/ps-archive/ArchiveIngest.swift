import PSArchive
import PSCore

/// Stores the records of an input: each read of input in one transaction, committed before the
/// next read (so nothing waits in an open transaction for more input), and the lines before a
/// malformed one (or one longer than InputLimits allows, refused before it is held) committed
/// before it is reported.
struct ArchiveIngest {
    let store: ArchiveStore
    let source: String
    let keepDeleted: Bool

    func run(_ lines: RecordLineReader) throws {
        var open = false
        func commit() throws {
            if open { try store.commit() }
            open = false
        }
        do {
            try lines.forEachLine({ line, number in
                let record: ArchiveRecord
                do {
                    record = try ArchiveRecord.read(line, source: source)
                } catch let error as RecordError {
                    throw ToolError(.malformedInput, "\(lines.name): line \(number): \(error.message)")
                }
                if !open {
                    try store.begin()
                    open = true
                }
                switch record {
                case .message(let message): try store.store(message)
                case .deletion(let source, let id): try store.delete(source: source, id: id, keep: keepDeleted)
                case .conversation(let source, let id, let title, let text):
                    try store.storeConversation(source: source, id: id, title: title, record: text)
                }
            }, afterRead: commit)
            try commit()
            try store.finishIngest()
        } catch let error as ToolError where error.status == .malformedInput {
            try commit()
            throw error
        }
    }
}
