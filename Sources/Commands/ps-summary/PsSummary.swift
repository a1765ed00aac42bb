import ArgumentParser
import PSCore
import PSNet
import PSRender

@main
struct PsSummary: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-summary",
        abstract: "Have a backend summarise a conversation, or list its summaries (Lucid).",
        discussion: """
            A backend that writes conversation summaries (Lucid) makes one on request from the \
            conversation's latest messages: an overview, the user's perspective and the \
            model's. `generate` writes the new summary record, `list` (the default) every summary of the \
            conversation (NDJSON, one a line, as the server gives them: id, \
            conversation_overview, user_perspective, model_perspective, message_count, \
            created_at); on a terminal, readable text instead. The conversation is --conversation, \
            else the current one (the one ps-send last used). An API that writes no summaries \
            is refused with exit status 2.

            EXAMPLES:
              ps-summary
              ps-summary generate
              ps-summary generate --conversation CONV_ID --message-count 50
              ps-summary list --conversation CONV_ID
              ps-summary list | jq -r .conversation_overview

            \(ConnectionOptions.environmentHelp)

            \(ExitStatus.helpText([.success, .failure, .usage, .authenticationNeeded, .notFound, .rateLimited,
                                   .serverError, .networkError, .interrupted, .brokenPipe]))
            """,
        version: ToolVersion.line,
        subcommands: [Generate.self, ListSummaries.self],
        defaultSubcommand: ListSummaries.self)

    static func main() { runAsTool() }

    /// The adapter, or exit 2 when its API writes no summaries; and the conversation.
    static func connect(_ connection: ConnectionOptions, conversation: String?) throws -> (SummariesAPI, String) {
        Interrupt.install()
        let adapter = try connection.connect().adapter
        let summaries = try Capabilities.require(adapter, SummariesAPI.self, toDo: "summarise conversations")
        if let conversation {
            try adapter.requireConversation(conversation)
            return (summaries, conversation)
        }
        guard let id = try adapter.defaultConversationID(creating: nil) else {
            throw ToolError(.notFound, "there is no conversation yet; name one with --conversation")
        }
        return (summaries, id)
    }
}

struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Summarise a conversation's latest messages; writes the summary.",
        usage: "ps-summary generate [--conversation <id>] [--message-count <n>]")

    @OptionGroup var connection: ConnectionOptions

    @Option(name: .long, help: ArgumentHelp("The conversation (default: the current one).", valueName: "id"), completion: LocalCompletions.conversations, transform: IDArgument.nonEmpty)
    var conversation: String?

    @Option(name: .long, help: ArgumentHelp("How many of its latest messages to summarise, 1 to 100 (default: the server's, 20).",
                                            valueName: "n"))
    var messageCount: Int?

    func validate() throws {
        if let messageCount, !(1...100).contains(messageCount) {
            throw ValidationError("--message-count must be between 1 and 100 (Lucid summarises at most 100 messages)")
        }
    }

    func run() throws {
        let (summaries, id) = try PsSummary.connect(connection, conversation: conversation)
        let output = SummaryOutput()
        try output.write(try summaries.generateSummary(conversationID: id, messageCount: messageCount))
    }
}

struct ListSummaries: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Write every summary of a conversation (the default).",
        usage: "ps-summary [list] [--conversation <id>] [<options>]")

    @OptionGroup var connection: ConnectionOptions

    @Option(name: .long, help: ArgumentHelp("The conversation (default: the current one).", valueName: "id"), completion: LocalCompletions.conversations, transform: IDArgument.nonEmpty)
    var conversation: String?

    func run() throws {
        let (summaries, id) = try PsSummary.connect(connection, conversation: conversation)
        let output = SummaryOutput()
        var any = false
        try summaries.listSummaries(conversationID: id) { summary in
            any = true
            try output.write(summary)
        }
        if !any && output.asText { try output.writer.writeText("No summaries of \(id) yet (ps-summary generate makes one).\n") }
    }
}

/// A summary record as NDJSON, or on a terminal as a few readable paragraphs, wrapped to the
/// width between words.
struct SummaryOutput {
    let writer = RecordWriter()
    let asText = Terminal.isTerminal(1)
    let width = Terminal.width(fd: 1)

    func write(_ summary: JSON) throws {
        guard asText else { return try writer.write(summary) }
        func text(_ key: String) -> String? {
            summary[key]?.stringValue.map(TerminalSafeText.sanitize).flatMap { $0.isEmpty ? nil : $0 }
        }
        var out = (text("created_at") ?? "") + "  " + (text("id") ?? "")
        if let count = summary["message_count"]?.intValue { out += "  (\(count) messages)" }
        out += "\n"
        if let overview = text("conversation_overview") { out += paragraph(overview) }
        if let user = text("user_perspective") { out += paragraph("You: " + user) }
        if let model = text("model_perspective") { out += paragraph("Model: " + model) }
        try writer.writeText(out + "\n")
    }

    /// `text` wrapped to the width, each line indented by two spaces.
    func paragraph(_ text: String) -> String {
        Wrapper.wrap([.text(text, .plain)], width: width - 2).map { "  " + $0.map(\.text).joined() + "\n" }.joined()
    }
}
