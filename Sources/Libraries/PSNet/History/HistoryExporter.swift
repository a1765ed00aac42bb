import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// Writes a conversation's messages as NDJSON message records, oldest first, each exactly
/// once, with memory flat in the conversation's length. (An API paged by offset from the
/// oldest message is walked forwards instead: ForwardHistoryExport.swift.)
///
/// Both PageSpace generations page a history the same way: the cursor only filters
/// (older than it for `before`, newer for anything else), then the server returns the NEWEST
/// `limit` matching messages, oldest first. Walking forward with `after` therefore skips
/// everything between a cursor and the newest page. The only way through is backwards: start
/// at the newest page (or, incrementally, at the newest page after the last export), follow
/// the pages back with `before` until there are no more (or the last export is reached),
/// keep each page in a spool file, then write the pages in reverse order.
///
/// A server that compares timestamps alone (the legacy generation) skips the messages that
/// share the cursor's timestamp. So the cursor for the next page is the page's oldest message
/// with a LATER timestamp than the page's oldest one: the next page then repeats the messages
/// at that oldest timestamp (dropped here by id) and includes any the server would have
/// skipped. Only a page whose messages all share one timestamp leaves no such cursor; that is
/// said on stderr, because then completeness cannot be known.
public struct HistoryExporter {
    public let adapter: APIAdapter
    public let writer: RecordWriter
    /// Called with the running count of messages fetched after each page (progress display).
    public var onProgress: ((Int) -> Void)?
    /// When set, every record carries it as `conversationId` (an agent's conversations
    /// exported one after another).
    public var conversationID: String?
    /// Decides each new message's record before it is kept: the record to write, or nil to
    /// leave it out (a follower that wrote it already). The watermark moves past it either way.
    public var filter: ((JSON) -> JSON?)?

    public init(adapter: APIAdapter, writer: RecordWriter) {
        self.adapter = adapter
        self.writer = writer
    }

    /// Everything newer than what `state` says was exported (all of it without a state). The
    /// state follows the records written (saved at most once a second, at the end, and on a
    /// failure), so an interrupted run is resumed without a gap or a repeat. Returns the
    /// number of messages written.
    @discardableResult
    public func exportAll(_ source: HistorySource, pageSize: Int, state: inout ExportState?) throws -> Int {
        if adapter.historyPaging == .oldestFirstOffset {
            return try exportForward(source, pageSize: pageSize, state: &state)
        }
        let key = source.stateKey
        let previous = state?.watermark(for: key)
        let spool = try RecordSpool(name: "ps-history")
        var summaries: [PageSummary] = []
        var writtenCounts: [Int] = []
        var fetched = 0
        var query = Self.firstQuery(after: previous, pageSize: pageSize)
        var overlap: Set<String> = []
        var cursorsSeen: Set<String> = []
        var newest: String?
        var notMessages: [JSON] = []
        while true {
            let page = try adapter.historyPage(source, query: query)
            // An entry that is not an object is no message: reported at the end, not written.
            var messages = page.messages
            if messages.contains(where: { $0.objectValue == nil }) {
                notMessages += messages.filter { $0.objectValue == nil }
                messages.removeAll { $0.objectValue == nil }
            }
            if summaries.isEmpty { newest = messages.last.flatMap(Self.createdAt) }
            var fresh = messages.filter { !overlap.contains(Self.id($0)) }
            var reachedPrevious = false
            if let previous {
                if previous.lastCreatedAt != nil {
                    fresh = fresh.filter { previous.isNew(id: Self.id($0), createdAt: Self.createdAt($0)) }
                    if let oldest = messages.first.flatMap(Self.createdAt), oldest < previous.lastCreatedAt! {
                        reachedPrevious = true
                    }
                } else if let index = fresh.firstIndex(where: { Self.id($0) == previous.lastMessageID }) {
                    fresh.removeFirst(index + 1)
                    reachedPrevious = true
                }
            }
            let records = fresh.compactMap { message -> JSON? in
                guard let filter else { return writer.stamped(record(message)) }
                return filter(record(message)).map(writer.stamped)
            }
            try spool.append(records)
            summaries.append(PageSummary(fresh))
            writtenCounts.append(records.count)
            fetched += fresh.count
            onProgress?(fetched)
            guard page.isPaged, page.hasMore, !reachedPrevious, !messages.isEmpty else { break }

            let next = Self.nextCursor(messages, serverCursor: page.nextCursor)
            if let tie = next.sharedTimestamp {
                Diagnostics.warning(
                    "all \(messages.count) messages of a page share the timestamp \(tie); a server that pages by "
                        + "timestamp alone may skip others with it, so this export may be incomplete "
                        + "(a larger --page-size gets past such a burst)")
            }
            guard let cursor = next.cursor, cursorsSeen.insert(cursor).inserted else {
                throw ToolError(.serverError, "the server answered the same page twice; stopping so as not to loop")
            }
            overlap = next.repeated
            query = HistoryQuery(limit: pageSize, cursor: cursor, direction: .before)
        }

        if let previous, fetched == 0, let stated = previous.lastCreatedAt, let newest, newest < stated {
            try Self.reportStateAhead(key: key, stated: stated, newest: newest, statePath: state?.path)
        }

        // Oldest page first; the state follows the pages written, and is saved at the end or
        // when the writing fails (what was written stays claimed, nothing more).
        var mark = previous
        var written = 0
        do {
            for index in stride(from: spool.count - 1, through: 0, by: -1) {
                let bytes = try spool.group(index)
                if !bytes.isEmpty { try bytes.withUnsafeBytes { try writer.writeRecords($0) } }
                written += writtenCounts[index]
                guard let folded = summaries[index].fold(into: mark) else { continue }
                mark = folded
                if state != nil { try state!.record(folded, for: key) }
            }
        } catch {
            if state != nil { try? state!.save() }
            throw error
        }
        if state != nil { try state!.save() }
        if !notMessages.isEmpty { throw Self.notMessagesError(notMessages, key: key, written: written) }
        return written
    }

    /// Exit 3 for a history that held entries that are not messages (`1`, `"x"`, `null`),
    /// once what was good is written and the state saved.
    static func notMessagesError(_ entries: [JSON], key: String, written: Int) -> ToolError {
        let kinds = entries.map { entry -> String in
            switch entry {
            case .string: return "a string"
            case .null: return "null"
            case .bool: return "a boolean"
            case .array: return "an array"
            default: return "a number"
            }
        }
        let listed = Array(Set(kinds)).sorted().joined(separator: ", ")
        return ToolError(.malformedInput, "\(key): the server's history held \(entries.count) "
            + "\(entries.count == 1 ? "entry that is" : "entries that are") not a message (\(listed)); "
            + "left out, the \(written) message\(written == 1 ? "" : "s") around \(entries.count == 1 ? "it" : "them") written")
    }

    /// The state's last export is later than the conversation's newest message. In the future,
    /// the state is wrong (it names a message this conversation never had) and no message would
    /// ever be exported after it: exit 3. Else the message exported last was deleted since.
    static func reportStateAhead(key: String, stated: String, newest: String, statePath: String?) throws {
        let said = "\(key): the conversation's newest message (\(TerminalSafeText.sanitize(newest))) is older than "
            + "the last one exported (\(TerminalSafeText.sanitize(stated))"
        let tomorrow = LocalConversations.iso8601(milliseconds: (Int(time(nil)) + 86_400) * 1000)
        guard stated > tomorrow else {
            Diagnostics.warning(said + ", since deleted); nothing new")
            return
        }
        throw ToolError(.malformedInput, "\(statePath ?? "the state"): " + said + ", a date to come): "
            + "the state is wrong, and nothing would ever be exported after it; remove the file, or its entry \(key)")
    }

    /// One page as the server gives it. Returns the cursor for the next page, if there is one.
    public func exportPage(_ source: HistorySource, query: HistoryQuery) throws -> String? {
        let page = try adapter.historyPage(source, query: query)
        let messages = page.messages.filter { $0.objectValue != nil }
        for message in messages { try writer.write(record(message)) }
        if messages.count < page.messages.count {
            throw Self.notMessagesError(page.messages.filter { $0.objectValue == nil }, key: source.stateKey, written: messages.count)
        }
        return page.hasMore ? page.nextCursor : nil
    }

    /// The first request: the newest page, or the newest page after the last export. It starts
    /// after the anchor (the newest exported message strictly older than the last one), not
    /// after the last one itself, so that messages sharing the last one's timestamp come too.
    static func firstQuery(after previous: HistoryWatermark?, pageSize: Int) -> HistoryQuery {
        guard let previous else { return HistoryQuery(limit: pageSize) }
        if previous.lastCreatedAt == nil { return HistoryQuery(limit: pageSize, cursor: previous.lastMessageID, direction: .after) }
        guard let anchor = previous.anchorMessageID else { return HistoryQuery(limit: pageSize) }
        return HistoryQuery(limit: pageSize, cursor: anchor, direction: .after)
    }

    /// Where the next (older) page starts: the oldest message with a later timestamp than the
    /// page's oldest, and the ids that the next page will then repeat.
    static func nextCursor(_ messages: [JSON], serverCursor: String?) -> (cursor: String?, repeated: Set<String>, sharedTimestamp: String?) {
        guard let oldest = messages.first, let oldestTime = createdAt(oldest) else {
            return (serverCursor ?? messages.first.map(id), [], nil)
        }
        guard let later = messages.firstIndex(where: { (createdAt($0) ?? oldestTime) > oldestTime }) else {
            return (serverCursor ?? id(oldest), [], oldestTime)
        }
        return (id(messages[later]), Set(messages[..<later].map(id)), nil)
    }

    /// The record written for a message.
    func record(_ message: JSON) -> JSON {
        var record = Self.normalised(message)
        if let conversationID, case .object(var object) = record {
            object["conversationId"] = .string(conversationID)
            record = .object(object)
        }
        return record
    }

    static func id(_ message: JSON) -> String { message["id"]?.stringValue ?? "" }

    static func createdAt(_ message: JSON) -> String? { message["createdAt"]?.stringValue }

    /// Stored envelopes (content + partsOrder + toolCalls/toolResults) rebuilt into parts.
    static func normalised(_ message: JSON) -> JSON {
        guard let object = message.objectValue else { return message }
        return MessageNormalizer.normalize(object)
    }
}

/// What the state needs to know of one spooled page (its newest messages), so that the
/// messages themselves need not stay in memory.
struct PageSummary {
    let count: Int
    /// The page's newest timestamp, and the ids of the page's messages that have it.
    let newestCreatedAt: String?
    let idsAtNewest: [String]
    /// The page's newest message strictly older than `newestCreatedAt`.
    let anchorInPage: String?

    init(_ messages: [JSON]) {
        count = messages.count
        let newest = messages.last.flatMap(HistoryExporter.createdAt)
        newestCreatedAt = newest
        if let newest {
            let tail = messages.reversed().prefix { HistoryExporter.createdAt($0) == newest }
            idsAtNewest = tail.reversed().map(HistoryExporter.id)
            anchorInPage = messages.dropLast(tail.count).last.map(HistoryExporter.id)
        } else {
            idsAtNewest = messages.last.map { [HistoryExporter.id($0)] } ?? []
            anchorInPage = nil
        }
    }

    /// The watermark once this page is written after everything before it; nil for an empty page.
    func fold(into mark: HistoryWatermark?) -> HistoryWatermark? {
        guard let last = idsAtNewest.last else { return nil }
        guard let newestCreatedAt else {
            return HistoryWatermark(lastMessageID: last, lastCreatedAt: nil, idsAtLastCreatedAt: [last], anchorMessageID: nil)
        }
        if let mark, mark.lastCreatedAt == newestCreatedAt, anchorInPage == nil {
            var joined = mark
            joined.idsAtLastCreatedAt += idsAtNewest
            joined.lastMessageID = last
            return joined
        }
        let anchor = anchorInPage ?? mark?.lastMessageID
        return HistoryWatermark(
            lastMessageID: last, lastCreatedAt: newestCreatedAt, idsAtLastCreatedAt: idsAtNewest, anchorMessageID: anchor)
    }
}
