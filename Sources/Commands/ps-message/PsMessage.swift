import ArgumentParser
import PSCore
import PSNet

@main
struct PsMessage: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-message",
        abstract: "Edit, delete or undo stored messages of a conversation.",
        discussion: """
            A message is named by its id (ps-history shows them). It belongs to a Global \
            assistant conversation (--conversation, default the current one) or, with --page, to \
            a Page AI agent. Each verb writes one NDJSON record of what it did. To ask again \
            for the last reply, use ps-send --regenerate.

            EXAMPLES:
              ps-message edit msg_12 --conversation conv_1 "What I meant to ask"
              ps-message delete msg_13 --page page_123
              ps-message undo msg_12 --dry-run
              ps-history --conversation conv_1 | tail -n 1   # the last message, with its id

            \(ConnectionOptions.environmentHelp)

            \(ExitStatus.helpText([.success, .failure, .usage, .authenticationNeeded, .forbidden, .notFound,
                                   .rateLimited, .serverError, .networkError, .interrupted]))
            """,
        version: ToolVersion.line,
        subcommands: [Edit.self, Delete.self, Undo.self])

    static func main() { runAsTool() }
}

/// Which conversation a message is in.
struct MessagePlace: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The Global assistant conversation (default: the current one; with --page, not needed).", valueName: "id"), completion: LocalCompletions.conversations, transform: IDArgument.nonEmpty)
    var conversation: String?

    @Option(name: .long, help: ArgumentHelp("The message is a Page AI agent's (an AI_CHAT page).", valueName: "page-id"), transform: IDArgument.nonEmpty)
    var page: String?

    func source(_ adapter: APIAdapter) throws -> HistorySource {
        if let page { return .agent(pageID: page, conversationID: conversation) }
        if let conversation { return .global(conversationID: conversation) }
        guard let id = try adapter.defaultConversationID(creating: nil) else {
            throw ToolError(.notFound, "there is no global conversation yet; name one with --conversation")
        }
        return .global(conversationID: id)
    }
}

struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replace a message's text (its tool calls stay).",
        usage: "ps-message edit <message-id> [<options>] [<text> ...]",
        discussion: """
            The new text is the arguments joined by spaces, or stdin when there are none. \
            A message still being generated cannot be edited (exit 2: the server's 409).
            """)

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var place: MessagePlace
    @Argument(help: ArgumentHelp("The message to edit.", valueName: "message-id"), transform: IDArgument.nonEmpty) var messageID: String
    @Argument(help: ArgumentHelp("The new text (default: stdin).", valueName: "text")) var words: [String] = []

    func run() throws {
        Interrupt.install()
        let text = try words.isEmpty ? StandardInputText.read(usage: "usage: ps-message edit ID TEXT..., or: echo TEXT | ps-message edit ID")
            : words.joined(separator: " ")
        let adapter = try connection.connect().adapter
        let editing = try Capabilities.require(adapter, MessageEditing.self, toDo: "edit messages")
        let source = try place.source(adapter)
        try editing.editMessage(messageID, in: source, content: text)
        try RecordWriter().write(["id": .string(messageID), "edited": true])
    }
}

struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Delete one message.",
        usage: "ps-message delete <message-id> [<options>]")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var place: MessagePlace
    @Argument(help: ArgumentHelp("The message to delete.", valueName: "message-id"), transform: IDArgument.nonEmpty) var messageID: String

    func run() throws {
        Interrupt.install()
        let adapter = try connection.connect().adapter
        let editing = try Capabilities.require(adapter, MessageEditing.self, toDo: "delete messages")
        try editing.deleteMessage(messageID, in: try place.source(adapter))
        try RecordWriter().write(["id": .string(messageID), "deleted": true])
    }
}

struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rewind a conversation to before a message: it and every later message go.",
        usage: "ps-message undo <message-id> [<options>]",
        discussion: """
            Writes the server's answer: {messagesDeleted, …}; with --dry-run its preview \
            ({messagesAffected, activitiesAffected, …}) and nothing changes. --with-changes also \
            undoes what the assistant's tools changed in the workspace.
            """)

    @OptionGroup var connection: ConnectionOptions
    @Flag(name: .long, help: "Show what would go, change nothing.") var dryRun = false
    @Flag(name: .long, help: "Also undo the workspace changes the assistant's tools made.") var withChanges = false
    @Argument(help: ArgumentHelp("The first message to remove.", valueName: "message-id"), transform: IDArgument.nonEmpty) var messageID: String

    func run() throws {
        Interrupt.install()
        let adapter = try connection.connect().adapter
        let undoing = try Capabilities.require(adapter, MessageUndoing.self, toDo: "undo messages")
        let answer = dryRun ? try undoing.undoPreview(messageID) : try undoing.undo(messageID, withChanges: withChanges)
        try RecordWriter().write(answer)
    }
}
