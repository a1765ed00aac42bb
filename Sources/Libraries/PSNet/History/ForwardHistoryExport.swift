import PSCore

/// The export for an API that pages with `limit` and `offset` counted from the oldest message
/// (`HistoryPaging.oldestFirstOffset`, Lucid): pages come oldest first, so each is written as
/// it arrives (one write a page, memory flat) and the state follows each page.
///
/// Offsets shift when messages are deleted, so they only say where to start looking: what was
/// exported is told by the watermark (the last exported message's timestamp and the ids at
/// that timestamp), never by position. A re-run starts one page before the offset the last
/// run reached and moves further back while the first message there is already new (more
/// were deleted than a page holds), so a deleted message makes it neither skip nor repeat.
/// The server must keep messages of one timestamp in a stable order (the order they were made).
extension HistoryExporter {
    func exportForward(_ source: HistorySource, pageSize: Int, state: inout ExportState?) throws -> Int {
        let key = source.stateKey
        var mark = state?.watermark(for: key)
        var offset = try startOffset(source, after: mark, pageSize: pageSize)
        var written = 0
        var buffer: [UInt8] = []
        do {
            while true {
                let page = try adapter.historyPage(source, query: HistoryQuery(limit: pageSize, offset: offset))
                let messages = page.messages
                let fresh = mark.map { mark in
                    messages.filter { mark.isNew(id: Self.id($0), createdAt: Self.createdAt($0)) }
                } ?? messages
                buffer.removeAll(keepingCapacity: true)
                for message in fresh {
                    writer.stamped(record(message)).write(to: &buffer)
                    buffer.append(0x0A)
                }
                if !buffer.isEmpty { try buffer.withUnsafeBytes { try writer.writeRecords($0) } }
                written += fresh.count
                offset += messages.count
                if let folded = PageSummary(fresh).fold(into: mark) { mark = folded }
                mark?.nextOffset = offset
                if state != nil, let mark { try state!.record(mark, for: key) }
                onProgress?(written)
                guard page.hasMore, !messages.isEmpty else { break }
            }
        } catch {
            if state != nil { try? state!.save() }  // what was written stays claimed
            throw error
        }
        if state != nil { try state!.save() }
        return written
    }

    /// Where a re-run starts reading: a page before the offset the last run reached, further
    /// back (doubling) while the message there is already new or the conversation has become
    /// shorter than that; 0 without a previous run.
    func startOffset(_ source: HistorySource, after mark: HistoryWatermark?, pageSize: Int) throws -> Int {
        guard let mark, let reached = mark.nextOffset, mark.lastCreatedAt != nil else { return 0 }
        var back = pageSize
        var start = max(0, reached - back)
        while start > 0 {
            let probe = try adapter.historyPage(source, query: HistoryQuery(limit: 1, offset: start))
            if let first = probe.messages.first, !mark.isNew(id: Self.id(first), createdAt: Self.createdAt(first)) {
                return start
            }
            back *= 2
            start = max(0, reached - back)
        }
        return 0
    }
}
