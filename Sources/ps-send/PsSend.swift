import ArgumentParser
import PSCore
import PSNet
#if canImport(Glibc)
import Glibc
#endif

@main
struct PsSend: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-send",
        abstract: "Send a message to a PageSpace assistant and write its streamed answer to stdout.",
        discussion: """
            The message is the arguments joined by spaces, or stdin when there are none. It goes \
            to the Global assistant's current conversation (one is created when there is none), \
            to --conversation, or with --page to a Page AI agent (AI_CHAT page), optionally in \
            one of its conversations.

            The response body (Server-Sent Events of the AI SDK's UI message stream) is written to \
            stdout unchanged, as it arrives, so it can be piped into ps-sse. Sends are never \
            retried: the server may already have started the turn.

            Ctrl-C stops cleanly: what was received is already written, and on the current API \
            the server is asked to abort the turn (POST /api/ai/abort); exit status 130. The same \
            happens, quietly with status 141, when the reader of the output goes away. A stream \
            the server cuts exits 9 with everything received written; one that ends without \
            [DONE] exits 10.

            EXAMPLES:
              ps-send "What's in my workspace?" | ps-sse | ps-parts | ps-render
              echo "Summarise this page" | ps-send --page page_123 > reply.sse
              ps-send --conversation conv_1 --provider openai --model gpt-4o "Hello"
              ps-send --print-ids "Remember this" 2>ids.txt | ps-sse >/dev/null

            \(ConnectionOptions.environmentHelp)

            \(ExitStatus.helpText([.success, .failure, .usage, .authenticationNeeded, .forbidden, .notFound,
                                   .rateLimited, .serverError, .networkError, .incomplete, .interrupted,
                                   .brokenPipe]))
            """)

    static func main() { runAsTool() }

    @OptionGroup var connection: ConnectionOptions

    @Option(name: .long, help: ArgumentHelp(
        "The conversation to send to (Global assistant; with --page, the agent's conversation).", valueName: "id"))
    var conversation: String?

    @Option(name: .long, help: ArgumentHelp("Send to this Page AI agent (an AI_CHAT page).", valueName: "page-id"))
    var page: String?

    @Flag(name: .long, help: "Start a new Global assistant conversation (current API).")
    var newConversation = false

    @Option(name: .long, help: ArgumentHelp(
        "The drive the user is in: sent as location context (or the page's drive with --page).", valueName: "drive-id"))
    var drive: String?

    @Option(name: .long, help: ArgumentHelp("The AI provider to use (selectedProvider).", valueName: "name"))
    var provider: String?

    @Option(name: .long, help: ArgumentHelp("The model to use (selectedModel).", valueName: "name"))
    var model: String?

    @Flag(name: .long, help: "Print conversation=ID, message=ID and stream=ID lines on stderr, for scripts.")
    var printIds = false

    @Argument(help: ArgumentHelp("The message (default: read from stdin).", valueName: "message"))
    var words: [String] = []

    func validate() throws {
        if newConversation && (conversation != nil || page != nil) {
            throw ValidationError("--new-conversation cannot go with --conversation or --page")
        }
    }

    func run() throws {
        Interrupt.install()
        let text = try messageText()
        let connection = try self.connection.connect()
        let adapter = connection.adapter
        let target = try sendTarget(adapter)
        let message = UserMessage.make(text: text)
        var options = SendOptions(provider: provider, model: model)
        if let page {
            options.pageContext = SendContext.page(page, drive: drive, client: adapter.client)
        } else if let drive {
            options.locationContext = SendContext.location(drive: drive, client: adapter.client)
        }
        if printIds {
            if case .global(let id) = target { Diagnostics.writeLine("conversation=\(id)") }
            if case .agent(_, let id?) = target { Diagnostics.writeLine("conversation=\(id)") }
            Diagnostics.writeLine("message=\(message["id"]!.stringValue!)")
        }
        let request = try adapter.sendRequest(target, message: message, options: options)
        let stream = ResponseStream(printIDs: printIds, knowsConversation: target.conversationID != nil)
        do {
            try stream.run(request, http: adapter.client.http)
        } catch let failure as TransferFailure {
            if failure == .interrupted { abortTurn(adapter, streamID: stream.streamID) }
            throw stream.toolError(failure, request: request)
        } catch is ReaderGone {
            abortTurn(adapter, streamID: stream.streamID, quiet: true)
            Glibc.exit(ExitStatus.brokenPipe.rawValue)  // quietly, like every command whose reader left
        }
    }

    private func messageText() throws -> String {
        if !words.isEmpty { return words.joined(separator: " ") }
        try Terminal.refuseInteractiveStdin(usage: "usage: ps-send MESSAGE..., or: echo MESSAGE | ps-send")
        var bytes: [UInt8] = []
        try ChunkReader(fd: 0, name: "stdin").forEachChunk { bytes.append(contentsOf: $0) }
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
        guard !bytes.isEmpty else { throw ToolError(.usage, "empty message on stdin") }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func sendTarget(_ adapter: APIAdapter) throws -> SendTarget {
        if let page { return .agent(pageID: page, conversationID: conversation) }
        if let conversation { return .global(conversationID: conversation) }
        if newConversation {
            guard let created = try adapter.createConversation() else {
                throw ToolError(.usage, "the \(adapter.kind.rawValue) API cannot create conversations")
            }
            return .global(conversationID: created)
        }
        guard let id = try adapter.defaultConversationID(create: true) else {
            throw ToolError(.serverError, "the server has no global conversation for this user")
        }
        return .global(conversationID: id)
    }

    /// Ctrl-C: ask the server to stop generating (the current API keeps going otherwise).
    /// (Also when our reader went away: nobody is left to read the answer.)
    private func abortTurn(_ adapter: APIAdapter, streamID: String?, quiet: Bool = false) {
        guard let streamID else { return }
        Interrupt.clear()
        do {
            if try adapter.abort(streamID: streamID), !quiet {
                Diagnostics.writeLine("ps-send: asked the server to stop the turn")
            }
        } catch {
            if !quiet { Diagnostics.warning("could not ask the server to stop the turn: \((error as? ToolError)?.message ?? "\(error)")") }
        }
    }
}

extension SendTarget {
    var conversationID: String? {
        switch self {
        case .global(let id): return id
        case .agent(_, let id): return id
        }
    }
}
