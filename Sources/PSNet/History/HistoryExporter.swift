import PSCore

/// Writes a conversation's messages as NDJSON message records, oldest first, one page in
/// memory at a time: a 10,000-message history needs no more memory than a 200-message one.
public struct HistoryExporter {
    public let adapter: APIAdapter
    public let writer: RecordWriter
    /// Called with the running count after each page (progress display).
    public var onProgress: ((Int) -> Void)?

    public init(adapter: APIAdapter, writer: RecordWriter) {
        self.adapter = adapter
        self.writer = writer
    }

    /// Everything newer than what `state` says was exported (all of it without a state),
    /// walking the pages forward. The state is saved after each page's records are written.
    @discardableResult
    public func exportAll(_ source: HistorySource, pageSize: Int, state: inout ExportState?) throws -> Int {
        let key = source.stateKey
        var cursor = state?.lastMessageID(for: key)
        var written = 0
        while true {
            let page = try adapter.historyPage(source, query: HistoryQuery(limit: pageSize, cursor: cursor, direction: .after))
            var messages = page.messages
            if !page.isPaged, let cursor {
                // The whole history at once: drop what an earlier run exported.
                if let seen = messages.firstIndex(where: { $0["id"]?.stringValue == cursor }) {
                    messages.removeFirst(seen + 1)
                }
            } else {
                messages.removeAll { $0["id"]?.stringValue == cursor && cursor != nil }
            }
            for message in messages { try writer.write(Self.normalised(message)) }
            written += messages.count
            let newest = messages.last?["id"]?.stringValue
            if let newest, state != nil { try state!.record(lastMessageID: newest, for: key) }
            onProgress?(written)
            guard page.isPaged, page.hasMore, let next = page.nextCursor ?? newest, next != cursor else { break }
            cursor = next
        }
        return written
    }

    /// Stored envelopes (content + partsOrder + toolCalls/toolResults) rebuilt into parts.
    static func normalised(_ message: JSON) -> JSON {
        guard let object = message.objectValue else { return message }
        return MessageNormalizer.normalize(object)
    }

    /// One page as the server gives it. Returns the cursor for the next page, if there is one.
    public func exportPage(_ source: HistorySource, query: HistoryQuery) throws -> String? {
        let page = try adapter.historyPage(source, query: query)
        for message in page.messages { try writer.write(Self.normalised(message)) }
        return page.hasMore ? page.nextCursor : nil
    }
}
