#if canImport(Glibc)
import Glibc
#endif
import PSCore

/// Follows one conversation live: what is new in its history first, then each message as
/// the realtime service announces it, written as message records the moment it is whole.
///
/// The service's broadcasts are best-effort: a socket that was away misses what happened
/// meanwhile, and nothing replays it. So after every (re)connection the follower joins the
/// conversation's room first and then catches up through the history (from where its
/// watermark stands), so nothing falls between the two; what both deliver is written once.
/// A jump in the events' `rev` means an event was lost on the way: the same catch-up heals it.
/// After a reconnection the newest history page is also compared with what was written, so
/// that edits and deletions made during the gap are reported too.
public final class ConversationFollower {
    private let adapter: ConversationFollowing
    private let source: HistorySource
    private let conversationID: String
    private let writer: RecordWriter
    private let endpoint: String
    private let pageSize: Int
    private var messages = FollowedMessages()
    private var lastRev: Int64?
    /// The connection in use, told goodbye when the follower ends.
    private var current: RealtimeConnection?
    /// Told when the connection is made, lost and made again (for stderr).
    public var onNotice: (String) -> Void = { _ in }
    /// Where following starts: after the whole history (what `state` has not exported), or
    /// from now, or after one message, without writing what came before.
    public var start: Start = .beginning

    public enum Start: Equatable, Sendable {
        case beginning
        case now
        case after(messageID: String)
    }
    /// How many history pages a search for one message may read.
    static let locatePages = 50

    public init(adapter: ConversationFollowing, source: HistorySource, conversationID: String, writer: RecordWriter,
                endpoint: String? = nil, pageSize: Int = 200) {
        self.adapter = adapter
        self.source = source
        self.conversationID = conversationID
        self.writer = writer
        self.endpoint = endpoint ?? adapter.realtimeEndpoint
        self.pageSize = pageSize
    }

    /// Runs until interrupted (ToolError .interrupted) or until something no reconnection can
    /// mend: a refused credential, a conversation that cannot be followed. `state` is where
    /// the export stands (a --state file, or one in memory); it is kept up to date.
    public func run(state: ExportState?) throws {
        Interrupt.watchesOutput = true
        do {
            try follow(state: state ?? ExportState.inMemory())
        } catch let error as ToolError where error.status == .interrupted && !Interrupt.isRequested && Interrupt.outputReaderGone {
            sayGoodbye()
            throw ExitRequest(.brokenPipe)  // the reader left (| head): end quietly, as on a write
        } catch {
            sayGoodbye()
            throw error
        }
    }

    /// Sends the close packet, so that the server drops the socket from its rooms now rather
    /// than at the ping timeout. Ctrl-C or a reader gone would abort the request at once, so
    /// they are set aside: the command is ending anyway, with the error already in hand.
    private func sayGoodbye() {
        guard let connection = current else { return }
        current = nil
        Interrupt.watchesOutput = false
        Interrupt.clear()
        connection.close()
    }

    private func follow(state: ExportState) throws {
        var state = state
        if let mark = try startingMark() { try state.record(mark, for: source.stateKey) }
        var exported: ExportState? = state
        try follow(exported: &exported)
    }

    /// The watermark of `start`: the newest message now, or the message named; nil to start
    /// from the beginning (or from now in a conversation with no message yet).
    private func startingMark() throws -> HistoryWatermark? {
        let message: JSON
        switch start {
        case .beginning:
            return nil
        case .now:
            let page = try adapter.historyPage(source, query: HistoryQuery(limit: pageSize))
            guard let newest = page.messages.last.map(HistoryExporter.normalised) else { return nil }
            message = newest
        case .after(let id):
            guard let found = try locate(id) else {
                throw ToolError(.notFound, "--since \(TerminalSafeText.quoted(id)): no such message in \(TerminalSafeText.quoted(conversationID))")
            }
            message = found
        }
        let id = HistoryExporter.id(message)
        return HistoryWatermark(lastMessageID: id, lastCreatedAt: HistoryExporter.createdAt(message), idsAtLastCreatedAt: [id])
    }

    private func follow(exported state: inout ExportState?) throws {
        var connectedOnce = false
        var attempt = 0
        while true {
            let connection = RealtimeConnection(endpoint: endpoint, options: adapter.client.http.options)
            current = connection
            do {
                try connection.open(token: adapter.realtimeToken())
                try connection.emit("join_conversation", .string(conversationID))
                let caughtUp = try catchUp(reconciling: connectedOnce, state: &state)
                if connectedOnce { onNotice("reconnected, caught up \(caughtUp) message\(caughtUp == 1 ? "" : "s")") }
                connectedOnce = true
                attempt = 0
                try listen(connection, state: &state)
            } catch let lost as RealtimeConnectionLost {
                current = nil  // nobody to say goodbye to
                guard connectedOnce else {
                    throw ToolError(.networkError, "cannot follow the conversation: \(lost.reason) (\(endpoint))")
                }
                try backOff(&attempt, reason: lost.reason)
            } catch let error as ToolError where connectedOnce && Self.isPassing(error) {
                current = nil
                try backOff(&attempt, reason: error.message)
            }
        }
    }

    /// Failures that a later attempt may not meet: the server unreachable or overloaded.
    private static func isPassing(_ error: ToolError) -> Bool {
        error.status == .networkError || error.status == .serverError || error.status == .rateLimited
    }

    /// socket.io-client's reconnection delay: 1 s doubling to at most 5 s, ±50 %. Said once
    /// per outage, when it starts; the reconnection says when it is over.
    private func backOff(_ attempt: inout Int, reason: String) throws {
        attempt += 1
        let base = min(5.0, Double(1 << min(attempt - 1, 3)))
        let delay = base * Double.random(in: 0.5...1.5)
        if attempt == 1 { onNotice("realtime connection lost (\(reason)); reconnecting…") }
        var remaining = delay
        while remaining > 0 {
            if Interrupt.isRequested { throw ToolError(.interrupted, "interrupted") }
            let step = min(remaining, 0.05)
            usleep(useconds_t(step * 1_000_000))
            remaining -= step
        }
    }

    // MARK: Catching up

    /// Writes what the history holds beyond the watermark (and moves it), and takes the rev
    /// the events go on from; with `reconciling`, also writes what changed among the newest
    /// messages while no event could say so. Returns how many records it wrote.
    @discardableResult
    private func catchUp(reconciling: Bool, state: inout ExportState?) throws -> Int {
        var exporter = HistoryExporter(adapter: adapter, writer: writer)
        exporter.filter = { [unowned self] record in self.messages.stored(record).map(self.naming) }
        var written = try exporter.exportAll(source, pageSize: pageSize, state: &state)
        // The newest page says which rev the events should go on from (so that the loss of
        // the very next one shows), and, after a gap, what changed among the newest messages.
        let page = try adapter.historyPage(source, query: HistoryQuery(limit: pageSize))
        lastRev = page.rev
        guard reconciling else { return written }
        let newest = page.messages.map(HistoryExporter.normalised)
        for message in newest {
            if let record = messages.reconcile(message) {
                try writer.write(naming(record))
                written += 1
            }
        }
        for id in messages.missing(fromNewestPage: newest) {
            try writeDeletion(id)
            written += 1
        }
        return written
    }

    // MARK: Listening

    private func listen(_ connection: RealtimeConnection, state: inout ExportState?) throws {
        while true {
            var wroteLive = false
            for (name, payload) in try connection.poll() {
                if name == "validation_error", payload["event"]?.stringValue == "join_conversation" {
                    let words = TerminalSafeText.sanitize(payload["error"]?.stringValue ?? "refused")
                    throw ToolError(.failure, "the realtime service will not follow \(TerminalSafeText.quoted(conversationID)): \(words)")
                }
                // The content plane only: directory events (conversation:updated, …) repeat
                // a write's rev, and would hide the loss of its content event.
                guard name.hasPrefix("conversation:message_") || name == "conversation:undo_applied",
                      payload["conversationId"]?.stringValue == conversationID else { continue }
                if let rev = payload["rev"]?.intValue, rev > 0 {
                    let lostSomething = lastRev.map { rev > $0 + 1 } ?? false
                    lastRev = max(lastRev ?? rev, rev)
                    // What was lost is older than this event: written first, from the history
                    // (which then also holds this event's message: written once, in order).
                    if lostSomething { try catchUp(reconciling: true, state: &state) }
                }
                switch name {
                case "conversation:message_created", "conversation:message_updated":
                    if try message(payload, isUpdate: name == "conversation:message_updated") { wroteLive = true }
                case "conversation:message_deleted":
                    if let id = payload["messageId"]?.stringValue, messages.delete(id) { try writeDeletion(id) }
                case "conversation:undo_applied":
                    for id in payload["affectedMessageIds"]?.arrayValue?.compactMap(\.stringValue) ?? [] where messages.delete(id) {
                        try writeDeletion(id)
                    }
                default:
                    break
                }
            }
            if wroteLive && state?.path != nil {
                // Bring the --state file up to what was written: the history says where it stands.
                try catchUp(reconciling: false, state: &state)
            }
        }
    }

    /// A created or updated message: written from the event, or fetched from the history when
    /// the event carries only a reference (a message over 32 KB) or changes one already
    /// written (the event may carry less than the stored message). True when written.
    private func message(_ payload: JSON, isUpdate: Bool) throws -> Bool {
        var record: JSON?
        if payload["truncated"]?.boolValue == true, let ref = payload["messageRef"], let id = ref["id"]?.stringValue {
            if ref["status"]?.stringValue == "streaming" { return messages.live(ref) != nil }
            guard let found = try locate(id) else {
                onNotice("message \(id) was announced but is not in the history (deleted since?)")
                return false
            }
            record = messages.stored(found)
        } else if let message = payload["message"], let id = message["id"]?.stringValue {
            if isUpdate, messages.isWritten(id), let found = try locate(id) {
                record = messages.stored(found)
            } else {
                record = messages.live(message)
            }
        }
        guard let record else { return false }
        try writer.write(naming(record))
        return true
    }

    /// A message record with its conversationId (ps-ndjson(5)), as an export writes it: set
    /// only as it is written, so that what FollowedMessages compares is the message itself.
    private func naming(_ record: JSON) -> JSON {
        guard case .object(var object) = record else { return record }
        object["conversationId"] = .string(conversationID)
        return .object(object)
    }

    /// A message as the history holds it, looked for from the newest page back.
    private func locate(_ id: String) throws -> JSON? {
        var query = HistoryQuery(limit: pageSize)
        var cursorsSeen: Set<String> = []
        for _ in 0..<Self.locatePages {
            let page = try adapter.historyPage(source, query: query)
            if let found = page.messages.first(where: { $0["id"]?.stringValue == id }) {
                return HistoryExporter.normalised(found)
            }
            guard page.isPaged, page.hasMore,
                  let cursor = HistoryExporter.nextCursor(page.messages, serverCursor: page.nextCursor).cursor,
                  cursorsSeen.insert(cursor).inserted
            else { return nil }
            query = HistoryQuery(limit: pageSize, cursor: cursor, direction: .before)
        }
        return nil
    }

    private func writeDeletion(_ id: String) throws {
        try writer.write(["id": .string(id), "deleted": true, "conversationId": .string(conversationID)])
    }
}
