import ArgumentParser
import PSCore
import PSNet

@main
struct PsHistory: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-history",
        abstract: "List conversations, or export a conversation's messages as NDJSON, oldest first.",
        usage: "ps-history [<options>]",
        discussion: """
            Writes message records (UIMessages, see ps-ndjson(5)), one a line, oldest first, \
            each flushed as it is written. Messages the server stored in the old envelope form \
            (content + partsOrder + toolCalls/toolResults) are rebuilt into parts, so the \
            output feeds ps-render and other tools directly.

            Without --limit, --cursor or --direction the whole conversation is exported (--all). \
            The server always answers with the newest messages that match a cursor, so the \
            export walks back from the newest page to the oldest, keeps the pages in a \
            temporary file (memory stays flat), then writes them oldest first: one request a \
            page, every message once. With --limit, --cursor or --direction, one page as the \
            server gives it, and next-cursor=ID on stderr when there is more.

            An API that pages by position from the oldest message (Lucid: limit and offset) is \
            walked forwards instead, each page written as it arrives; --state works the same \
            (offsets only say where to start looking; what was exported is told by timestamp \
            and id, so deleted messages make it neither skip nor repeat). --cursor and \
            --direction do not apply there.

            --page P without --conversation exports each of the agent's conversations in turn \
            (both PageSpace APIs), every record carrying its conversationId.

            --every-conversation exports every conversation the credential reaches: the Global \
            assistant's (on Lucid, Gemini and OpenAI-compatible servers, each conversation of \
            the user or profile), then each Page AI agent's in every drive (PageSpace). Each \
            conversation's record (as --list writes it) comes before its messages, which carry \
            its conversationId. With --state one file covers them all: a conversation made \
            since the last run is exported whole, the others from where they stopped. \
            ps-history --every-conversation --state FILE | ps-archive is an archive in one \
            cron line.

            Every record carries "origin": the server's origin with the profile as its user \
            part (scheme://PROFILE@host[:port], see ps-ndjson(5)), by which ps-archive tells \
            servers apart.

            --state FILE makes the export incremental, for cron: the file remembers the newest \
            message exported from each conversation (its id and timestamp, so that a deleted \
            message or several sharing a timestamp are still handled), and is replaced \
            atomically as records are written (at most once a second, and at the end). A \
            re-run writes only newer messages, however many; a run that is interrupted \
            (Ctrl-C, a network error, a server failure) loses nothing and repeats nothing when \
            run again. Two runs with one file take turns: the second waits for the first (a \
            lock on FILE.lock, up to --lock-wait seconds, else exit 1 saying so), then goes on \
            from where it ended. A file that is not a valid state is refused (exit 3, naming \
            the field), as is one whose last export of a conversation is dated in the future, \
            after its newest message (nothing would ever be exported again); one merely later \
            than the newest message (the message exported last was deleted) is a warning. \
            A failed write (a full disk) is exit 1 naming the file: the \
            page being written is cut off it again (no broken line), and the state, saved only \
            once the output is on the disk, claims nothing the file lacks, so a rerun repeats \
            nothing. Append the output to your archive (>>).

            --follow keeps going after the export, like tail -f: it follows the conversation \
            live through the server's realtime service (current PageSpace API, session token) \
            and writes each message the moment it is whole (a reply being generated is held \
            until it is finished). A message changed later is written again with \
            "updated":true; a deleted one as {"id":ID,"deleted":true,"conversationId":CONVERSATION}. \
            When the connection drops, ps-history says "reconnecting…" once on stderr, \
            reconnects (1 s, doubling to 5 s) and catches up through the history, so messages \
            written meanwhile arrive once, in order ("reconnected, caught up N messages"); a lost event (a jump in the conversation's rev) is caught up the same way. \
            With --state the file follows what was written. --since now starts from now, \
            writing nothing of the conversation before; --since MESSAGE-ID starts after that \
            message (exit 6 when the conversation has no such message). Ctrl-C ends it (exit 130). The \
            realtime service is found at the server's /socket.io/; --realtime-url names \
            another (PageSpace runs it on port 3001).

            A page whose messages all share one timestamp is reported on stderr: a server \
            that pages by timestamp alone may skip others with it An entry of a history \
            page that is not a message (a number, a string, null) is left out and reported: \
            the messages are written (and the state follows them), then exit 3.

            --list writes conversation records (id, title, ...) of the Global assistant, or \
            of a Page AI agent with --agent; on a terminal, a readable table instead.

            --rename ID --title TEXT gives a conversation a new title and writes its record; \
            --delete ID deletes it and writes {"id":ID,"deleted":true}. Where the API cannot \
            (say, renaming a conversation the client keeps for an OpenAI-compatible server), \
            exit 2 says so.

            EXAMPLES:
              ps-history > global.ndjson
              ps-history --conversation conv_1 --all | ps-render
              ps-history --page page_123 --conversation conv_9 > agent-chat.ndjson
              ps-history --conversation conv_1 --limit 20 --direction before
              ps-history --list --agent page_123
              ps-history --rename conv_1 --title "Trip planning"
              ps-history --delete conv_1
              ps-history --conversation conv_1 \\
                  --state ~/.local/state/ps-history.json >> archive.ndjson
              ps-history --conversation conv_1 --follow | ps-render
              ps-history --every-conversation --state ~/.ps-all.state | ps-archive

            \(ConnectionOptions.environmentHelp)

            \(ExitStatus.helpText([.success, .failure, .usage, .malformedInput, .authenticationNeeded, .forbidden, .notFound,
                                   .rateLimited, .serverError, .networkError, .interrupted, .brokenPipe]))
            """,
        version: ToolVersion.line)

    @OptionGroup var recordSize: RecordSizeOption

    static func main() { runAsTool() }

    @OptionGroup var connection: ConnectionOptions

    @Flag(name: .long, help: "List conversations instead of exporting messages.")
    var list = false

    @Option(name: .long, help: ArgumentHelp("With --list: list this Page AI agent's conversations.", valueName: "page-id"), transform: IDArgument.nonEmpty)
    var agent: String?

    @Option(name: .long, help: ArgumentHelp("Give this conversation a new title (with --title).", valueName: "id"), transform: IDArgument.nonEmpty)
    var rename: String?

    @Option(name: .long, help: ArgumentHelp("The new title, with --rename.", valueName: "text"))
    var title: String?

    @Option(name: .long, help: ArgumentHelp("Delete this conversation.", valueName: "id"), transform: IDArgument.nonEmpty)
    var delete: String?

    @Option(name: .long, help: ArgumentHelp(
        "The conversation to export. Default: the current Global assistant conversation.", valueName: "id"), completion: LocalCompletions.conversations, transform: IDArgument.nonEmpty)
    var conversation: String?

    @Option(name: .long, help: ArgumentHelp("Export a Page AI agent's history. With --conversation, that conversation.",
                                            valueName: "page-id"), transform: IDArgument.nonEmpty)
    var page: String?

    @Flag(name: .long, help: "Export every message, walking all pages (the default).")
    var all = false

    @Flag(name: .long, help: "Export every conversation the credential reaches (with --state: what is new in each).")
    var everyConversation = false

    @Option(name: .long, help: ArgumentHelp("One page of at most n messages (at most 200).", valueName: "n"))
    var limit: Int?

    @Option(name: .long, help: ArgumentHelp("One page next to this message id.", valueName: "message-id"), transform: IDArgument.nonEmpty)
    var cursor: String?

    @Option(name: .long, help: ArgumentHelp("One page: messages before or after the cursor.",
                                            valueName: "before|after"), completion: .list(["before", "after"]))
    var direction: String?

    @Option(name: .long, help: ArgumentHelp("Messages per request for a whole export (1-200).", valueName: "n"))
    var pageSize = 200

    @Option(name: .long, help: ArgumentHelp(
        "The largest page accepted, in bytes. Default 268435456: a larger one stops the export (exit 8) before it fills the memory.",
        valueName: "n"))
    var maxPageBytes = 256 * 1024 * 1024

    @Option(name: .long, help: ArgumentHelp("Export only what is new since the last run. This file remembers where the export stopped.",
                                            valueName: "file"))
    var state: String?

    @Option(name: .long, help: ArgumentHelp(
        "With --state: the wait for another run (default 120). The other run is one using the same file.", valueName: "seconds"))
    var lockWait: Double = 120

    @Flag(name: .long, help: "After the export, follow the conversation live.")
    var follow = false

    @Option(name: .long, help: ArgumentHelp(
        "With --follow: where to start (now, or after this message), instead of writing the whole conversation first.",
        valueName: "now|message-id"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp(
        "With --follow: the realtime Socket.IO URL. Default: the server's /socket.io/.", valueName: "url"))
    var realtimeURL: String?

    private var onePage: Bool { limit != nil || cursor != nil || direction != nil }

    private var editing: Bool { rename != nil || delete != nil }

    func validate() throws {
        if rename != nil && delete != nil { throw ValidationError("--rename and --delete go one at a time") }
        if (rename != nil) != (title != nil) { throw ValidationError("--rename ID goes with --title TEXT") }
        if editing && (list || agent != nil || conversation != nil || page != nil || state != nil || onePage || all) {
            throw ValidationError("--rename and --delete go alone")
        }
        if let title, title.allSatisfy(\.isWhitespace) { throw ValidationError("--title must not be blank") }
        if list && (conversation != nil || page != nil || state != nil || onePage || all) {
            throw ValidationError("--list goes only with --agent")
        }
        if agent != nil && !list { throw ValidationError("--agent goes with --list (to export, use --page)") }
        if all && onePage { throw ValidationError("--all cannot go with --limit, --cursor or --direction") }
        if state != nil && onePage { throw ValidationError("--state exports everything new; drop --limit/--cursor/--direction") }
        if onePage && page != nil && conversation == nil {
            // The page's own history (GET /api/ai/chat/messages?pageId=) mixes all its conversations.
            throw ValidationError("--limit, --cursor and --direction page through one conversation: with --page, name it with --conversation")
        }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if lockWait < 0 { throw ValidationError("--lock-wait must be 0 or more seconds") }
        if !(1...200).contains(pageSize) { throw ValidationError("--page-size must be between 1 and 200") }
        if maxPageBytes < 1024 { throw ValidationError("--max-page-bytes must be at least 1024") }
        if follow && (list || editing || onePage) { throw ValidationError("--follow follows one conversation's export; drop --list, --rename, --delete, --limit, --cursor and --direction") }
        if follow && page != nil && conversation == nil { throw ValidationError("--follow follows one conversation: name it with --conversation") }
        if everyConversation && (list || editing || onePage || follow || conversation != nil || page != nil) {
            throw ValidationError("--every-conversation exports them all; drop --conversation, --page, --list, --follow, --rename, --delete, --limit, --cursor and --direction")
        }
        if realtimeURL != nil && !follow { throw ValidationError("--realtime-url goes with --follow") }
        if since != nil && !follow { throw ValidationError("--since goes with --follow") }
        if since != nil && state != nil { throw ValidationError("--since and --state both say where to start: give one") }
        if let since, since.isEmpty { throw ValidationError("--since takes now or a message id") }
        if let direction, HistoryDirection(rawValue: direction) == nil {
            throw ValidationError("--direction is before or after, not \(direction)")
        }
    }

    func run() throws {
        recordSize.apply()
        Interrupt.install()
        let connected = try connection.connect(maxResponseBytes: maxPageBytes)
        let adapter = connected.adapter
        let writer = RecordWriter()
        writer.stamp = ("origin", .string(connected.session.recordOrigin))
        if let rename, let title {
            let renaming = try Capabilities.require(adapter, ConversationRenaming.self, toDo: "rename conversations")
            try writer.write(try renaming.renameConversation(rename, title: title))
            return
        }
        if let delete {
            let deleting = try Capabilities.require(adapter, ConversationDeleting.self, toDo: "delete conversations")
            try deleting.deleteConversation(delete)
            try writer.write(["id": .string(delete), "deleted": true])
            return
        }
        if list {
            // A readable table on a terminal, NDJSON records otherwise.
            let asTable = Terminal.isTerminal(1)
            var table = ConversationTable()
            let each: (JSON) throws -> Void = { record in
                if asTable { table.add(record) } else { try writer.write(record) }
            }
            if let agent {
                try adapter.listAgentConversations(agentID: agent, each)
            } else {
                try adapter.listConversations(each)
            }
            if asTable { try writer.writeText(table.render(width: Terminal.width(fd: 1))) }
            return
        }
        if everyConversation {
            let progress = Progress()
            var exportState = try loadState(writer: writer)
            defer { progress.finish() }
            try EveryConversationExport(adapter: adapter, writer: writer, pageSize: pageSize, progress: progress)
                .run(state: &exportState)
            return
        }
        var exporter = HistoryExporter(adapter: adapter, writer: writer)
        if let page, conversation == nil, !onePage, adapter.listsAgentConversations {
            try exportAgent(page, adapter: adapter, exporter: &exporter)
            return
        }
        let source = try historySource(adapter)
        // Each message record names its conversation, so an archive or a search of the
        // export knows it (the server's messages do not all carry it).
        exporter.conversationID = source.conversationID
        if follow {
            try followLive(source, adapter: adapter, writer: writer)
            return
        }
        if onePage {
            let query = HistoryQuery(limit: limit, cursor: cursor, direction: direction.flatMap(HistoryDirection.init))
            if let next = try exporter.exportPage(source, query: query) { Diagnostics.writeLine("next-cursor=\(next)") }
            return
        }
        let progress = Progress()
        exporter.onProgress = progress.update
        var exportState = try loadState(writer: writer)
        defer { progress.finish() }
        try exporter.exportAll(source, pageSize: pageSize, state: &exportState)
    }

    /// Every conversation of a Page AI agent, one after another, each record tagged with its
    /// conversationId (the page's combined history would interleave them, other members'
    /// included).
    private func exportAgent(_ agentID: String, adapter: APIAdapter, exporter: inout HistoryExporter) throws {
        var ids: [String] = []
        try adapter.listAgentConversations(agentID: agentID) { record in
            if let id = record["id"]?.stringValue { ids.append(id) }
        }
        let progress = Progress()
        var exportState = try loadState(writer: exporter.writer)
        defer { progress.finish() }
        var total = 0
        for id in ids.reversed() {
            exporter.conversationID = id
            exporter.onProgress = { progress.update(total + $0) }
            total += try exporter.exportAll(.agent(pageID: agentID, conversationID: id), pageSize: pageSize, state: &exportState)
        }
    }

    /// The export, then the conversation live until Ctrl-C.
    private func followLive(_ source: HistorySource, adapter: APIAdapter, writer: RecordWriter) throws {
        let following = try Capabilities.require(adapter, ConversationFollowing.self, toDo: "follow a conversation live")
        guard let conversationID = source.conversationID else {
            throw ToolError(.usage, "--follow follows one conversation: name it with --conversation")
        }
        let follower = ConversationFollower(
            adapter: following, source: source, conversationID: conversationID, writer: writer,
            endpoint: realtimeURL, pageSize: pageSize)
        follower.onNotice = { Diagnostics.error($0) }
        follower.start = since.map { $0 == "now" ? .now : .after(messageID: $0) } ?? .beginning
        if Terminal.isTerminal(2) { Diagnostics.error("following \(TerminalSafeText.quoted(conversationID)) live; Ctrl-C to stop") }
        try follower.run(state: try loadState(writer: writer))
    }

    /// The --state file, which claims only what the output holds: before the state is saved,
    /// what was written is flushed to the disk (a full disk may say so only then).
    private func loadState(writer: RecordWriter) throws -> ExportState? {
        var loaded = try state.map { try ExportState.load($0, lockWait: lockWait) }
        loaded?.beforeSave = { try writer.sync() }
        return loaded
    }

    private func historySource(_ adapter: APIAdapter) throws -> HistorySource {
        if let page { return .agent(pageID: page, conversationID: conversation) }
        if let conversation {
            try adapter.requireConversation(conversation)
            return .global(conversationID: conversation)
        }
        guard let id = try adapter.defaultConversationID(creating: nil) else {
            throw ToolError(.notFound, "there is no global conversation yet; name one with --conversation")
        }
        return .global(conversationID: id)
    }
}

/// "1200 messages" on stderr, rewritten in place, only when stderr is a terminal.
final class Progress {
    private let enabled = Terminal.isTerminal(2)
    private var shown = false

    func update(_ count: Int) {
        guard enabled else { return }
        FileDescriptorOutput.writeAll(fd: 2, Array("\r\(count) messages".utf8))
        shown = true
    }

    func finish() {
        if shown { FileDescriptorOutput.writeAll(fd: 2, [0x0A]) }
    }
}
