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
            The message is the arguments joined by spaces, or stdin when there are none (or the \
            only argument is -). With arguments AND piped input (git diff | ps-send "review \
            this"), the message is the arguments, a blank line, then the piped text; at most \
            --max-stdin-bytes of it (exit 2 beyond). It goes to the Global assistant's most \
            recently used conversation (a new one when there is none), to --conversation, or \
            with --page to a Page AI agent (AI_CHAT page), optionally in one of its \
            conversations. A new conversation's id is made here (cuid2 shape) and printed by \
            --print-ids, so that ps-send --page P --conversation ID can continue it.

            --provider and --model change the stored default, not just this message: the \
            user's for the Global assistant, the agent's (for everyone using it) with --page. \
            Without --model, the profile's model is used (ps-auth login --model, ps-auth \
            set-model), whatever the API, so one script runs against every backend with only \
            --profile changed; an OpenAI-compatible server that lists exactly one model needs \
            neither.

            On PageSpace's OpenAI-compatible API (a profile whose server ends in /api/v1, an \
            MCP key) --page ID means the model ps-agent://ID, and the server keeps the \
            conversations: --new-conversation and --page without --conversation make one on \
            the server, every send names it and carries only the new message.

            The response body (Server-Sent Events of the AI SDK's UI message stream) is written to \
            stdout unchanged, as it arrives, so it can be piped into ps-sse. Sends are never \
            retried: the server may already have started the turn.

            Ctrl-C stops cleanly: what was received is already written, and on the current API \
            the server is asked to abort the turn (POST /api/ai/abort, naming the stream and \
            the conversation); whether it stopped is said on stderr; exit status 130. An MCP \
            key cannot abort: the reply then goes on on the server. The same happens, quietly \
            with status 141, when the reader of the output goes away. A stream the server cuts \
            exits 9 with everything received written; one that ends without [DONE], or with \
            [DONE] but no finish chunk (a reply stopped or taken over on the server), exits 10.

            EXAMPLES:
              ps-send "What's in my workspace?" | ps-sse | ps-parts | ps-render
              echo "Summarise this page" | ps-send --page page_123 > reply.sse
              ps-send --conversation conv_1 --provider openai --model gpt-4o "Hello"
              ps-send --print-ids "Remember this" 2>ids.txt | ps-sse >/dev/null
              git diff | ps-send "Review this change" | ps-sse | ps-parts | ps-render

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

    @Flag(name: .long, help: "Start a new conversation (Global assistant, or an OpenAI-compatible server's).")
    var newConversation = false

    @Option(name: .long, help: ArgumentHelp(
        "The drive the user is in: sent as location context (or the page's drive with --page).", valueName: "drive-id"))
    var drive: String?

    @Option(name: .long, help: ArgumentHelp(
        "The AI provider to use (selectedProvider); becomes the stored default.", valueName: "name"))
    var provider: String?

    @Option(name: .long, help: ArgumentHelp(
        "The model to use (selectedModel; becomes the server's stored default); default: the profile's (ps-auth set-model).",
        valueName: "name"))
    var model: String?

    @Option(name: .long, help: ArgumentHelp(
        "A system prompt sent with the conversation (OpenAI-compatible servers; PageSpace uses the agent's own).",
        valueName: "text"))
    var system: String?

    @Option(name: .long, help: ArgumentHelp(
        "The most piped input taken as context after the arguments (default 1048576).", valueName: "bytes"))
    var maxStdinBytes = 1_048_576

    @Flag(name: .long, help: "Print conversation=ID, message=ID and stream=ID lines on stderr, for scripts.")
    var printIds = false

    @Argument(help: ArgumentHelp("The message (default: read from stdin).", valueName: "message"))
    var words: [String] = []

    func validate() throws {
        if newConversation && (conversation != nil || page != nil) {
            throw ValidationError("--new-conversation cannot go with --conversation or --page")
        }
        if maxStdinBytes < 1 { throw ValidationError("--max-stdin-bytes must be at least 1") }
    }

    func run() throws {
        Interrupt.install()
        let text = try messageText()
        let connection = try self.connection.connect()
        let adapter = connection.adapter
        // The profile's model stands in for --model, whatever the API.
        let model = self.model ?? connection.session.profileModel
        let target = try sendTarget(adapter, text: text, model: model)
        let message = UserMessage.make(text: text)
        var options = SendOptions(provider: provider, model: model)
        options.system = system
        if let page {
            options.location = .page(pageID: page, driveID: drive)
        } else if let drive {
            options.location = .drive(driveID: drive)
        }
        if printIds {
            if case .global(let id) = target { Diagnostics.writeLine("conversation=\(id)") }
            if case .agent(_, let id?) = target { Diagnostics.writeLine("conversation=\(id)") }
            Diagnostics.writeLine("message=\(message["id"]!.stringValue!)")
        }
        let request = try adapter.sendRequest(target, message: message, options: options)
        let stream = ResponseStream(
            printIDs: printIds, knowsConversation: target.conversationID != nil,
            collector: adapter.keepsTurns ? ReplyCollector() : nil)
        do {
            try stream.run(request, http: adapter.client.http)
            try keepTurn(adapter, target, message, stream)
        } catch let error as ToolError where error.status == .incomplete {
            // What arrived is kept too, marked incomplete, so the conversation loses nothing.
            try keepTurn(adapter, target, message, stream)
            throw error
        } catch let failure as TransferFailure {
            if failure == .interrupted { abortTurn(adapter, streamID: stream.streamID, conversationID: target.conversationID) }
            if case .network(_, true) = failure { try keepTurn(adapter, target, message, stream) }
            throw stream.toolError(failure, request: request)
        } catch is ReaderGone {
            abortTurn(adapter, streamID: stream.streamID, conversationID: target.conversationID, quiet: true)
            throw ExitRequest(.brokenPipe)  // quietly, like every command whose reader left
        }
    }

    /// Where the client keeps the conversation: the message and the reply rebuilt from the stream.
    private func keepTurn(_ adapter: APIAdapter, _ target: SendTarget, _ message: JSON, _ stream: ResponseStream) throws {
        guard let collector = stream.collector else { return }
        collector.finish()
        try adapter.keepTurn(target, message: message, reply: collector.reply)
    }

    /// The arguments; stdin when there are none (or just `-`); the arguments then the piped
    /// text when there are both (a terminal on stdin is not piped input).
    private func messageText() throws -> String {
        let fromStdin = words.isEmpty || words == ["-"]
        if fromStdin {
            try Terminal.refuseInteractiveStdin(usage: "usage: ps-send MESSAGE..., or: echo MESSAGE | ps-send")
        } else if Terminal.isTerminal(0) {
            return words.joined(separator: " ")
        }
        let piped = try readStdin(limit: fromStdin ? Int.max : maxStdinBytes)
        if fromStdin {
            guard !piped.isEmpty else { throw ToolError(.usage, "empty message on stdin") }
            return piped
        }
        return piped.isEmpty ? words.joined(separator: " ") : words.joined(separator: " ") + "\n\n" + piped
    }

    private func readStdin(limit: Int) throws -> String {
        var bytes: [UInt8] = []
        try ChunkReader(fd: 0, name: "stdin").forEachChunk { chunk in
            bytes.append(contentsOf: chunk)
            if bytes.count > limit {
                throw ToolError(.usage, "the piped input is over \(limit) bytes; send less, or raise --max-stdin-bytes")
            }
        }
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func sendTarget(_ adapter: APIAdapter, text: String, model: String?) throws -> SendTarget {
        // A new Page AI conversation gets its id here: the server would make one but tell it
        // nowhere, and the conversation could not be continued.
        let new = NewConversation(title: NewConversation.title(fromMessage: text), model: model)
        if let page {
            return .agent(pageID: page, conversationID: try conversation ?? adapter.newAgentConversationID(pageID: page, creating: new))
        }
        if let conversation {
            try adapter.requireConversation(conversation)
            return .global(conversationID: conversation)
        }
        if newConversation {
            guard let created = try adapter.createConversation(new) else {
                throw ToolError(.usage, "the \(adapter.kind.rawValue) API cannot create conversations")
            }
            return .global(conversationID: created)
        }
        guard let id = try adapter.defaultConversationID(creating: new) else {
            throw ToolError(.serverError, "the server has no global conversation for this user")
        }
        return .global(conversationID: id)
    }

    /// Ctrl-C: ask the server to stop generating (the current API keeps going otherwise),
    /// naming the stream and the conversation (the only name known before the answer's
    /// headers). Also when our reader went away: nobody is left to read the answer.
    private func abortTurn(_ adapter: APIAdapter, streamID: String?, conversationID: String?, quiet: Bool = false) {
        Interrupt.clear()
        let outcome: AbortOutcome
        do {
            outcome = try adapter.abort(streamID: streamID, conversationID: conversationID)
        } catch {
            if !quiet { Diagnostics.warning("could not ask the server to stop the turn: \((error as? ToolError)?.message ?? "\(error)")") }
            return
        }
        guard !quiet else { return }
        switch outcome {
        case .stopped:
            Diagnostics.writeLine("ps-send: the server stopped the turn")
        case .notStopped(let code, let reason):
            let detail = [code, reason].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
            Diagnostics.warning("the server did not confirm that it stopped the turn" + (detail.isEmpty ? "" : " (\(TerminalSafeText.sanitize(detail)))"))
        case .unsupported(let why):
            Diagnostics.warning(why)
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
