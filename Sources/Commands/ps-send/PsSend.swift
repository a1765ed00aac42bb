import ArgumentParser
import PSCore
import PSNet
import PSPrompt
import PSRender
import PSSend
#if canImport(Glibc)
import Glibc
#endif

@main
struct PsSend: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-send",
        abstract: "Send a message to an assistant on any backend; the answer streams to stdout.",
        discussion: """
            The message is the arguments joined by spaces, or stdin when there are none (or the \
            only argument is -). With arguments AND piped input (git diff | ps-send "review \
            this"), the message is the arguments, a blank line, then the piped text; at most \
            --max-stdin-bytes of it (exit 2 beyond). It goes to the Global assistant's most \
            recently used conversation (a new one when there is none), to --conversation, or \
            with --page to a Page AI agent (AI_CHAT page), optionally in one of its \
            conversations. A new conversation's id is made here (cuid2 shape) and printed by \
            --print-ids, so that ps-send --page P --conversation ID can continue it.

            On the current PageSpace API --provider and --model go together: the pair, given whole, runs \
            (one the server does not know runs its default model instead) and is stored as sent, \
            not just for this message: as the user's default, and with --page as the agent's \
            too (for everyone using it). A model without a provider is not run or stored (the \
            stored pair runs), but Page AI still checks it against the plan: on the free plan \
            a model that is not free is refused (403 "Subscription required", exit 5; the \
            message is kept, with no reply). Out of credits is exit 7. Without --model, the profile's model is used (ps-auth login --model, ps-auth \
            set-model), whatever the API, so one script runs against every backend with only \
            --profile changed; an OpenAI-compatible server that lists exactly one model needs \
            neither.

            On PageSpace's OpenAI-compatible API (a profile whose server ends in /api/v1, an \
            MCP key) --page ID means the model ps-agent://ID, and the server keeps the \
            conversations: --new-conversation and --page without --conversation make one on \
            the server, every send names it and carries only the new message.

            The response body (Server-Sent Events of the AI SDK's UI message stream) is written to \
            stdout unchanged, as it arrives, so it can be piped into ps-sse. When stdout is a \
            terminal the reply is shown rendered instead, live, exactly as | ps-sse | ps-parts | \
            ps-render would show it, with the same exit status; --raw writes the raw stream to a \
            terminal too, --render renders into a pipe. Retries (--retries, PS_RETRIES; \
            "retrying in 1s (1/3)" on stderr): the reads before the send (GET requests: finding \
            the API, the conversation) are retried after a network error, a refused connection \
            included, a 408, a 429 (after its Retry-After, up to --max-retry-wait) or a 5xx but \
            501. The send itself (the POST) is retried only when the connection was refused \
            (nothing was sent); a 429, a 5xx or a connection broken after sending ends ps-send \
            with that error (exit 7, 8 or 9): run it again. A broken reply is continued, not \
            sent again (below).

            Ctrl-C stops cleanly: what was received is already written, and on the current API \
            the server is asked to abort the turn (POST /api/ai/abort, naming the stream and \
            the conversation; on the Gemini API POST /conversations/ID/cancel); whether it \
            stopped is said on stderr (stopped; already over, and then the server stops the \
            next send to the conversation within 30s; or not confirmed, so it may still be \
            running; 10 aborts a minute at most); exit status 130. An MCP \
            key cannot abort: the reply then goes on on the server. The same happens, quietly \
            with status 141, when the reader of the output goes away. A stream the server cuts \
            exits 9 with everything received written; one that ends without [DONE], or with \
            [DONE] but no finish chunk (a reply stopped or taken over on the server), or a \
            Gemini stream without its done event (an error event says why), exits 10, as does a \
            reply that asks for a tool (an OpenAI-compatible server's finish_reason tool_calls, \
            or a call left without result): the client runs no tools but those given (below), so it says which and \
            stops there. Where the client keeps the conversation (an OpenAI-compatible server), \
            the message and what came of the reply are kept however the reply ended (cut, \
            Ctrl-C, | head, waiting for a tool: marked incomplete, see ps-ndjson(5)).

            When the connection breaks mid-reply and the server can say where the reply is (the \
            current API, with a session token), ps-send joins it again by itself \
            (stream-join, from the chunk after the last one written: nothing repeated, nothing \
            missed) and carries on; a note says so on stderr (--no-resume: exit 9 instead). Only whole events are written \
            then, so the output never holds half an event. --resume MESSAGE-ID does the same \
            for a later run (from --from-seq, default the start); --list-streams lists the \
            replies being generated. When the server no longer holds the chunks from there \
            (it names the first it has), the rest is written from that chunk, a part begun in \
            the gap opened again, and the run exits 10 naming the missing chunks; a reply that \
            already ended is written from what the server still holds of it (exit 10 when that \
            is not the whole, 6 when it holds nothing: read it with ps-history).

            --regenerate asks again: the conversation's last reply is deleted and its last \
            message sent once more (ps-message edits and deletes messages).

            A PageSpace reply that ends on a question to the user (the ask_user tool: a \
            question or a few, each with 2-4 options) is shown with its options, a line on \
            stderr repeats it, and the exit status is 11. --answer TEXT (once per question, \
            in order; with the same --conversation, or --page and --conversation) answers it \
            as the web app does: TEXT that is an option's label picks that option, other text \
            is the answer in the user's words; the reply then goes on as for a message. A \
            message sent instead of an answer closes the question (the server marks it \
            dismissed).

            --attach FILE (repeatable) is read and checked before anything is sent, as the \
            server checks images: a file whose content is a JPEG, PNG, GIF or WebP image (known \
            by its first bytes, not its name, and with a whole header that gives its size) becomes a file part {type:"file", mediaType, \
            filename, url:"data:TYPE;base64,..."} after the text, at most 5 of them, each at \
            most 4 MiB as a data URL (about 3 MiB of image); a UTF-8 text file (no NUL byte) \
            is added to the message after a blank line, as its file name and a colon on one \
            line, then its content in a fenced block (``` or a longer fence than any run of \
            backticks in it). A file named as an image that is not one, one that only starts \
            like an image (a header cut short, no size), an image of another \
            type, a file that is neither, one over 4 MiB, or one that cannot be read is exit \
            2 naming it. Only the current PageSpace API takes images; the others (the legacy \
            API kept only a message's text) refuse them with exit 2, before sending. That \
            server refuses images for a model without vision (400, "The selected model \
            \"glm-4.6\" does not support image attachments. ..."): exit 2 in its words, \
            nothing stored. It judges the Global assistant by --model (or the profile's model) \
            only, so without one nothing is checked; Page AI by --model, else the agent's model.

            Every text that would be sent is looked at for secrets (tokens, keys, passwords) \
            before anything is sent: the message, stdin, --system, attached text files, and \
            each string of --history's messages (texts, tool inputs and outputs). One found \
            is exit 2 naming where (never the secret); --redact sends it as \
            [REDACTED:kind], --allow-secrets as it is.

            --template FILE|NAME makes the message from a template (NAME is \
            $XDG_CONFIG_HOME/ps-tools/templates/NAME.md; a FILE has a / or ends in .md): \
            {{name}} is filled by --var name=VALUE, {{stdin}} by the piped text (without it, \
            piped text follows the message after a blank line, as ever); \\{{ writes a literal \
            {{. A placeholder with no value, a --var with no placeholder, {{stdin}} with nothing \
            piped, or a {{ that starts no placeholder is exit 2 naming it, before anything is \
            sent. A front matter between --- lines sets system, model and schema (a one-line \
            value, or | and indented lines; a schema file is relative to the template); the \
            options win over it. The secret check applies to the filled text. --print writes \
            the message to stdout instead of sending it.

            --schema FILE|JSON checks the answer against a JSON Schema of the draft 7 keywords \
            type, properties, required, additionalProperties, items, enum, const, minimum, \
            maximum, minLength, maxLength (code points), pattern (a Swift Regex: ECMAScript-like, \
            no lookbehind), anyOf, oneOf and $ref within the schema; any other keyword, or a $ref \
            beside other keywords, is exit 2. An OpenAI-compatible server gets it as \
            response_format json_schema, every other API as a short instruction after the \
            message. The answer (one enclosing ``` fence is allowed) is read and validated here \
            whatever the server claims; an invalid one is sent back in the same conversation \
            with what is wrong, up to --repair N times (default 1; a line on stderr each time). \
            The reply is then written whole, as one text block holding the valid JSON value \
            (compact), so that ps-render --format text | jq reads it, with \
            metadata.schema {valid, repairs, errors} (ps-ndjson(5)). Still invalid: the last \
            answer's text is written and the exit status is 3, naming the first error.

            --tool FILE (repeatable) offers the model a tool that ps-send runs itself, on an \
            OpenAI-compatible server or PageSpace's /api/v1 (elsewhere exit 2: those backends run \
            their own tools). FILE --describe prints the tool's definition, \
            {"name","description","parameters":JSON schema}; a call runs FILE with the call's \
            arguments as JSON on stdin, its stdout is the result, and a non-zero exit an error \
            result with its stderr. The calls of one step run side by side; their results go \
            back and the model goes on, until it answers without a call, or --max-tool-steps \
            steps of calls have run (then exit 10, saying so). Only the tools given are offered \
            (--deny-tool NAME takes one away); a call of any other ends the run, exit 10, naming \
            it. Each call runs with a plain environment (PATH, HOME, USER, LOGNAME, LANG, LC_ALL, \
            LC_CTYPE, TZ, TMPDIR: never the credential) in a process group of its own; one that \
            takes longer than --tool-timeout seconds, or prints more than 1 MiB, is stopped with \
            its group, and the model gets an error result while a line on stderr says so. A \
            tool's output passes the secret check below before it is sent (refused, exit 2 \
            naming the tool; --redact, --allow-secrets). --confirm asks before each call (y to \
            run it, else the model is told it was declined), and needs stdin and stderr on a \
            terminal (exit 2 otherwise), so an unattended run never waits on a prompt. The \
            whole exchange is one stream on stdout, one message for ps-parts: each response as \
            the server sent it, less the [DONE] between steps, each result as a \
            tool-output-available or tool-output-error chunk, a start-step before the next \
            response (ps-ndjson(5)); on a terminal each call shows as it runs. Where the client \
            keeps the conversation it is kept so, calls and results in it; PageSpace's /api/v1 \
            is sent the whole conversation with client_manages_history, and stores the steps.

            --mcp SERVER (repeatable) offers an MCP server's tools the same way, bounded and \
            checked alike. SERVER is a name in $XDG_CONFIG_HOME/ps-tools/mcp.json, \
            {"mcpServers":{"NAME":{"command":"...","args":[...],"env":{...}}}} as other MCP \
            clients read it (the server runs with the plain environment plus env; {"url":...} \
            there names an HTTP one); an http(s) URL, a server over streamable HTTP that answers \
            in JSON; or a command line, split at spaces, run over stdio. ps-send runs one ps-mcp \
            (package ps-tools-server, ps-mcp(1)) per server, which starts or reaches it and lists \
            its tools before anything is sent: without ps-mcp, or a server that does not start \
            or answer within --tool-timeout seconds, exit 2 naming it. A server that dies during \
            a call, or sends a message over 8 MiB, is an error result with its last words.

            An API that answers whole (Lucid: one JSON document, no stream) is written as the \
            same UI message stream (start, one text block, finish, [DONE]; see ps-ndjson(5)), \
            so the pipeline is unchanged; --print-ids then names the server's id of the \
            message. Lucid's 503 says "Lucid is temporarily unavailable; try again" (exit 8), a \
            504 or a request that timed out "the request timed out" (exit 9). \
            --extract-facts-every N asks the server to extract facts after a send that brings \
            the conversation's message count (the user's and the replies) to or past a multiple \
            of N, as Lucid's app does every 10 messages: a note on stderr says how many; a failed \
            extraction is a warning, not a failed send. An API that keeps no facts refuses it \
            before sending (exit 2).

            --archive (or "archive": true in config.json, at its top level or in a profile; \
            --no-archive wins over both) keeps each exchange in the archive ps-archive keeps \
            ($XDG_DATA_HOME/ps-tools/archive.sqlite): the message and the reply, as message \
            records with their conversationId, createdAt and origin (as ps-history writes it), \
            the model in the reply's metadata.model, stored by ps-archive as from a pipe, so that \
            ps-search --archive finds them. It is off by default. Only a reply written whole is \
            kept (also one that asks a question, exit 11, or fails --schema, exit 3); a send \
            that fails, is cut or is interrupted keeps nothing. When the archive cannot take \
            it (a file that cannot be written, a database locked, a file that is not an \
            archive, no ps-archive beside ps-send), the answer is written all the same, then \
            one line says why, and the exit status is 12.

            EXAMPLES:
              ps-send "What's in my workspace?" | ps-sse | ps-parts | ps-render
              echo "Summarise this page" | ps-send --page page_123 > reply.sse
              ps-send --agent "Research Assistant" "What changed?" | ps-sse | ps-parts
              ps-send --print-ids "Remember this" 2>ids.txt | ps-sse >/dev/null
              git diff | ps-send "Review this change" | ps-sse | ps-parts | ps-render
              git diff | ps-send --template review --var project=api --print
              ps-send --conversation ckv4f9k2m0000a1b2c3d4e5f6 --provider openai \\
                  --model openai/gpt-5.4-mini "Hello"
              ps-send --attach chart.png --attach notes.md "What does the chart show?" \\
                  | ps-sse | ps-parts
              ps-send --list-streams
              ps-send --resume msg_123 | ps-sse | ps-parts | ps-render
              ps-send --api lucid --extract-facts-every 10 "I moved to Lyon" \\
                  | ps-sse | ps-parts | ps-render
              ps-send --schema trip.schema.json "Plan a weekend in Lyon" \\
                  | ps-sse | ps-parts | ps-render --format text | jq -r .city
              ps-send --tool examples/tools/clock "What time is it in Tokyo?" \\
                  | ps-sse | ps-parts | ps-render --tools compact
              ps-send --mcp 'uvx mcp-server-time' --mcp git "What changed today?" \\
                  | ps-sse | ps-parts | ps-render

            \(ConnectionOptions.environmentHelp)

            \(ExitStatus.helpText([.success, .failure, .usage, .malformedInput, .authenticationNeeded, .forbidden, .notFound,
                                   .rateLimited, .serverError, .networkError, .incomplete, .assistantAsks, .notArchived,
                                   .interrupted, .brokenPipe]))
            """,
        version: ToolVersion.line)

    @OptionGroup var recordSize: RecordSizeOption

    static func main() { runAsTool() }

    @OptionGroup var connection: ConnectionOptions

    @Option(name: .long, help: ArgumentHelp(
        "The conversation to send to. A Global assistant conversation, or with --page the agent's.", valueName: "id"), completion: LocalCompletions.conversations, transform: IDArgument.nonEmpty)
    var conversation: String?

    @Option(name: .long, help: ArgumentHelp("Send to this Page AI agent (an AI_CHAT page).", valueName: "page-id"), transform: IDArgument.nonEmpty)
    var page: String?

    @Option(name: .long, help: ArgumentHelp(
        "Send to this Page AI agent, by title or page id. The title is matched ignoring case; a page id is as --page.", valueName: "name"), transform: IDArgument.nonEmpty)
    var agent: String?

    @Flag(name: .long, help: "Start a new conversation. A Global assistant one, or an OpenAI-compatible server's.")
    var newConversation = false

    @Option(name: .long, help: ArgumentHelp(
        "The drive the user is in, sent as context. With --page, the page's drive.", valueName: "drive-id"), transform: IDArgument.nonEmpty)
    var drive: String?

    @Option(name: .long, help: ArgumentHelp(
        "The AI provider (selectedProvider); PageSpace runs and stores it only with --model.", valueName: "name"))
    var provider: String?

    @Option(name: .long, help: ArgumentHelp(
        "The model to use (selectedModel); default: the profile's (ps-auth set-model). PageSpace runs and stores it (the user's default, with --page the agent's) only with --provider; Gemini keeps it as a new conversation's.",
        valueName: "name"))
    var model: String?

    @Option(name: .long, help: ArgumentHelp(
        "A system prompt sent with the conversation. Only to OpenAI-compatible servers; PageSpace uses the agent's own.",
        valueName: "text"))
    var system: String?

    @Option(name: .long, help: ArgumentHelp(
        "The most piped input taken (default 1048576). It is the context after the arguments.", valueName: "bytes"))
    var maxStdinBytes = 1_048_576

    @Flag(name: .long, help: "Print the ids on stderr, for scripts. The lines are conversation=ID, message=ID and stream=ID.")
    var printIds = false

    @Option(name: .long, help: ArgumentHelp(
        "Write a reply that is being generated. Nothing is sent; the current API, with a session token.",
        valueName: "message-id"), transform: IDArgument.nonEmpty)
    var resume: String?

    @Option(name: .long, help: ArgumentHelp("With --resume: start at this chunk (default 0).", valueName: "n"))
    var fromSeq: Int?

    @Flag(name: .long, help: "Ask again: replace the last reply. The conversation's last reply is deleted and its last message sent once more.")
    var regenerate = false

    @Option(name: .long, help: ArgumentHelp(
        "Answer the assistant's question (exit 11). Once per question; an option's label picks it, other text is the answer.",
        valueName: "text"))
    var answer: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Start a conversation from these messages. They are ps-history output (- for stdin), for APIs where the client keeps conversations.",
        valueName: "file"))
    var history: String?

    @Flag(name: .long, help: "On a broken connection, stop (exit 9). By default ps-send joins the reply again.")
    var noResume = false

    @Flag(name: .long, help: "List the replies being generated now. They are NDJSON (messageId, conversationId, ...); nothing is sent.")
    var listStreams = false

    @Option(name: .long, help: ArgumentHelp(
        "Have facts extracted every n messages (Lucid). After the send, when the conversation's message count reaches a multiple of n.",
        valueName: "n"))
    var extractFactsEvery: Int?

    @Option(name: .long, help: ArgumentHelp(
        "Attach this file (repeatable). A JPEG, PNG, GIF or WebP image is sent as a file part; a UTF-8 text file goes into the message.",
        valueName: "file"))
    var attach: [String] = []

    @Flag(help: "Raw event stream, or the rendered reply. --raw writes the raw stream even on a terminal; --render renders even into a pipe (default: rendered on a terminal, raw otherwise).")
    var output: ReplyOutputMode?

    @OptionGroup var secretOptions: SecretOptions

    @OptionGroup var archive: ArchiveOption

    @OptionGroup(title: "Templates and schemas") var prompt: PromptOptions
    @OptionGroup(title: "Tools") var tools: ToolOptions

    @Argument(help: ArgumentHelp("The message (default: read from stdin).", valueName: "message"))
    var words: [String] = []

    func validate() throws {
        if resume != nil || listStreams {
            if resume != nil && listStreams { throw ValidationError("--resume and --list-streams go one at a time") }
            if !words.isEmpty || conversation != nil || page != nil || agent != nil || newConversation || provider != nil || model != nil
                || system != nil || drive != nil {
                throw ValidationError("--resume and --list-streams send nothing: give no message and no send options")
            }
        }
        if !attach.isEmpty && (resume != nil || listStreams || regenerate) {
            throw ValidationError("--attach goes with a new message, not with --resume, --list-streams or --regenerate")
        }
        if regenerate && (!words.isEmpty || newConversation) {
            throw ValidationError("--regenerate sends the conversation's last message again: give no message")
        }
        if regenerate && (page != nil || agent != nil) && conversation == nil {
            throw ValidationError("--regenerate --page (or --agent) needs the agent's --conversation")
        }
        if history != nil && (conversation != nil || page != nil || agent != nil || regenerate || newConversation) {
            throw ValidationError("--history starts a new conversation: it cannot go with --conversation, --page, --agent, --regenerate or --new-conversation")
        }
        if history == "-" && (words.isEmpty || words == ["-"]) {
            throw ValidationError("with --history - the messages come on stdin: give the message as arguments")
        }
        if !answer.isEmpty && (!words.isEmpty || regenerate || newConversation || history != nil || !attach.isEmpty
            || resume != nil || listStreams) {
            throw ValidationError("--answer answers the conversation's question: give no message, and no --regenerate, "
                + "--new-conversation, --history, --attach, --resume or --list-streams")
        }
        if !answer.isEmpty && (page != nil || agent != nil) && conversation == nil {
            throw ValidationError("--answer --page (or --agent) needs the agent's --conversation")
        }
        if answer.contains(where: { $0.allSatisfy(\.isWhitespace) }) {
            throw ValidationError("--answer needs text: an option's label, or the answer in your words")
        }
        if tools.offersTools && (resume != nil || listStreams) {
            throw ValidationError("--tool and --mcp go with a send, not with --resume or --list-streams")
        }
        if fromSeq != nil && resume == nil { throw ValidationError("--from-seq goes with --resume") }
        if archive.archive == true && (resume != nil || listStreams || prompt.printOnly) {
            throw ValidationError("--archive keeps what a send exchanges: it goes with neither --resume, --list-streams nor --print")
        }
        if let fromSeq, fromSeq < 0 { throw ValidationError("--from-seq must be 0 or more") }
        if newConversation && (conversation != nil || page != nil || agent != nil) {
            throw ValidationError("--new-conversation cannot go with --conversation, --page or --agent")
        }
        if page != nil && agent != nil { throw ValidationError("give --page or --agent, not both") }
        if maxStdinBytes < 1 { throw ValidationError("--max-stdin-bytes must be at least 1") }
        if let extractFactsEvery, extractFactsEvery < 1 { throw ValidationError("--extract-facts-every must be at least 1") }
        try prompt.validate(words: words, sendsNewMessage: resume == nil && !listStreams && !regenerate && answer.isEmpty,
                            stdinIsHistory: history == "-")
    }

    func run() throws {
        recordSize.apply()
        Interrupt.install()
        if listStreams { return try listActiveStreams() }
        let output = ReplyOutputMode.makeOutput(self.output)
        Interrupt.whileWaiting = { output.tick() }
        let archived = ArchivedExchange()
        do {
            if let resume { try follow(resume, output: output) } else { try send(output: output, archived: archived) }
        } catch {
            output.close()  // the send's own error is the one to report
            archived.keepAfter(error)
            throw error
        }
        try output.finish()
        try archived.keep()
    }

    private func send(output: ReplyOutput, archived: ArchivedExchange) throws {
        // Every file is checked before anything is sent.
        let secrets = secretOptions.check
        var files = try AttachedFiles(paths: attach)
        try files.mapTexts { try secrets.pass($0.content, from: "--attach \(TerminalSafeText.sanitize($0.filename))") }
        let plan = try prompt.plan()
        let system = try (self.system ?? plan.template?.system).map { try secrets.pass($0, from: "--system") }
        var text = regenerate || !answer.isEmpty ? nil
            : files.text(withMessage: try plan.filledText(maxStdinBytes: maxStdinBytes, secrets: secrets) ?? messageText(secrets))
        if prompt.printOnly, let text { return try PromptPlan.print(text) }
        let connection = try self.connection.connect()
        let adapter = connection.adapter
        let schemaTurns = plan.schema.map { SchemaTurns(schema: $0, repairs: plan.repairs, secrets: secrets) }
        if let schemaTurns, let message = text { text = try schemaTurns.firstText(message, nativeSchema: adapter.takesResponseSchema) }
        if !files.images.isEmpty && !adapter.takesFileParts {
            throw ToolError(.usage, "the \(adapter.kind.rawValue) API cannot take images: --attach \(TerminalSafeText.sanitize(files.images[0].filename)) "
                + "would be lost; attach only text files")
        }
        let cadence = try extractFactsEvery.map {
            FactCadence(every: $0, facts: try Capabilities.require(adapter, FactsAPI.self, toDo: "extract facts"))
        }
        let toolLoop = try tools.offersTools ? ToolLoop.make(tools, adapter: adapter, secrets: secrets, printIDs: printIds) : nil
        let page = try self.page ?? agent.map { try AgentFinder.find($0, adapter: adapter).id }
        // The profile's model stands in for --model, whatever the API.
        let model = self.model ?? plan.template?.model ?? connection.session.profileModel
        if let text { try adapter.checkMessage(text) }
        let target: SendTarget, message: JSON
        if let history, let text {
            target = try seededTarget(adapter, from: history, text: text, model: model, secrets: secrets)
            message = UserMessage.make(text: text)
        } else if let text {
            target = try sendTarget(adapter, page: page, text: text, model: model)
            message = UserMessage.make(text: text, files: files.fileParts)
        } else if !answer.isEmpty {
            (target, message) = try answerTarget(adapter, page: page, secrets: secrets)
        } else {
            (target, message) = try regenerationTarget(adapter, page: page)
        }
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
            // An API that answers whole names the message itself (WholeAnswerOutput).
            if !adapter.answersWhole { Diagnostics.writeLine("message=\(message["id"]!.stringValue!)") }
        }
        // --archive: the reply is rebuilt as it is written, and kept with the message once whole.
        let output = archive.isOn(for: connection.session)
            ? archived.watch(output, message: message, conversationID: target.conversationID, model: model,
                             origin: connection.session.recordOrigin)
            : output
        if let schemaTurns {
            if adapter.takesResponseSchema { options.responseSchema = schemaTurns.schema.json }
            return try schemaTurns.run(message, output: output) { message, capture in
                try deliver(adapter, target, message, options: options, cadence: cadence, toolLoop: toolLoop, output: capture)
            }
        }
        try deliver(adapter, target, message, options: options, cadence: cadence, toolLoop: toolLoop, output: output)
    }

    /// Sends `message` and writes the reply to `output`, keeping the turn where the client keeps it.
    private func deliver(_ adapter: APIAdapter, _ target: SendTarget, _ message: JSON, options: SendOptions,
                         cadence: FactCadence?, toolLoop: ToolLoop?, output: ReplyOutput) throws {
        if let toolLoop { return try toolLoop.run(target, message: message, sendOptions: options, output: output) }
        var request = try adapter.sendRequest(target, message: message, options: options)
        if adapter.answersWhole {
            try WholeAnswerOutput.run(request, adapter: adapter, target: target, printIDs: printIds, output: output)
            if let cadence, let id = target.conversationID { cadence.afterSend(conversationID: id) }
            return
        }
        let resuming = noResume ? nil : (adapter as? StreamResuming).flatMap { $0.canResumeStreams ? $0 : nil }
        let stream = ResponseStream(
            output: output, printIDs: printIds, knowsConversation: target.conversationID != nil,
            collector: adapter.keepsTurns ? ReplyCollector() : nil, resumable: resuming != nil)
        do {
            do {
                try stream.run(&request, client: adapter.client)
            } catch TransferFailure.network(let message, true) where resuming != nil && stream.messageID != nil {
                // The server goes on generating: join the reply where the connection broke.
                let resumer = StreamResumer(join: StreamJoin(adapter: resuming!), stream: stream, conversationID: target.conversationID)
                try resumer.resume(messageID: stream.messageID!, cut: message)
                try stream.finishChecks(request)
            }
            try keepTurn(adapter, target, message, stream)
            if let cadence, let id = target.conversationID { cadence.afterSend(conversationID: id) }
        } catch let error as ToolError where error.status == .incomplete {
            // What arrived is kept too, marked incomplete, so the conversation loses nothing.
            try keepTurn(adapter, target, message, stream)
            if stream.stoppedOnServer && Self.tookOver(adapter, target, messageID: message["id"]?.stringValue) {
                throw ToolError(.incomplete, "another send to this conversation took over the reply; what arrived was written")
            }
            throw error
        } catch let failure as TransferFailure {
            if failure == .interrupted {
                stream.output.close()  // the rendered reply ends before the lines about stopping
                // The user's message stays in the conversation, with what came of the reply.
                try keepTurn(adapter, target, message, stream, cutShort: "interrupted (Ctrl-C) before the reply's end")
                // A reply whose finish arrived is over on the server: an abort would find nothing,
                // and that stops the next send (AbortOutcome's not_found).
                if !stream.sawFinish { abortTurn(adapter, streamID: stream.streamID, conversationID: target.conversationID) }
            }
            if case .network(_, true) = failure { try keepTurn(adapter, target, message, stream) }
            throw stream.toolError(failure, request: request)
        } catch is ReaderGone {
            // Kept as for a cut stream: the next message continues this conversation.
            try keepTurn(adapter, target, message, stream, cutShort: "the reader of the output went away before the reply's end")
            if !stream.sawFinish { abortTurn(adapter, streamID: stream.streamID, conversationID: target.conversationID, quiet: true) }
            throw ExitRequest(.brokenPipe)  // quietly, like every command whose reader left
        }
    }

    /// Whether a reply stopped on the server was taken over: today's server stops the reply in
    /// flight when another message comes to the conversation (takeOverConversationStreams,
    /// apps/web/src/lib/ai/chat-pipeline/start-chat-generation.ts:76-84), after storing that
    /// message, so the conversation's last message of the user is then no longer ours.
    private static func tookOver(_ adapter: APIAdapter, _ target: SendTarget, messageID: String?) -> Bool {
        guard adapter.kind == .pagespace, let messageID else { return false }
        let source: HistorySource
        switch target {
        case .global(let id): source = .global(conversationID: id)
        case .agent(let page, let id?): source = .agent(pageID: page, conversationID: id)
        case .agent(_, nil): return false
        }
        guard let recent = try? adapter.historyPage(source, query: HistoryQuery(limit: 4)).messages,
              let lastOfUser = recent.last(where: { $0["role"]?.stringValue == "user" })?["id"]?.stringValue
        else { return false }
        return lastOfUser != messageID
    }

    /// `--history FILE`: a new conversation that starts with the messages in FILE.
    private func seededTarget(_ adapter: APIAdapter, from path: String, text: String, model: String?,
                              secrets: SecretCheck) throws -> SendTarget {
        let seeding = try Capabilities.require(adapter, ConversationSeeding.self, toDo: "start a conversation from --history")
        let messages = try MessageRecords.read(path, secrets: secrets)
        guard let id = try adapter.createConversation(NewConversation(title: NewConversation.title(fromMessage: text), model: model)) else {
            throw ToolError(.usage, "the \(adapter.kind.rawValue) API cannot create conversations")
        }
        try seeding.seedConversation(id, with: messages)
        return .global(conversationID: id)
    }

    /// `--regenerate`: the conversation's last user message, sent again (same id, so it is not
    /// stored twice) after its reply is deleted, as the web app's retry does.
    private func regenerationTarget(_ adapter: APIAdapter, page: String?) throws -> (SendTarget, JSON) {
        let source = try existingSource(adapter, page: page, toDo: "regenerate in")
        var recent = try adapter.historyPage(source, query: HistoryQuery(limit: 2)).messages
        if let last = recent.last, last["role"]?.stringValue == "assistant", let id = last["id"]?.stringValue {
            let editing = try Capabilities.require(adapter, MessageEditing.self, toDo: "delete the last reply to regenerate it")
            try editing.deleteMessage(id, in: source)
            recent.removeLast()
        }
        guard let question = recent.last, question["role"]?.stringValue == "user" else {
            throw ToolError(.notFound, "the conversation does not end with a message of yours to send again")
        }
        var message = JSONObject()
        message["id"] = question["id"]
        message["role"] = "user"
        message["parts"] = question["parts"]
        return (source.target, .object(message))
    }

    /// `--answer TEXT`: the conversation's last reply, its pending ask_user calls answered, sent
    /// back as the web client's addToolResult does (the trailing message is the assistant's, the
    /// part `output-available` with `{answers:[{header, question, selectedLabel | otherText}]}`;
    /// the server merges it into the stored reply and goes on: apps/web/src/lib/ai/core/
    /// ask-user-resume.ts, global-chat-turn.ts:608-622, page-chat-turn.ts:1021-1036).
    private func answerTarget(_ adapter: APIAdapter, page: String?, secrets: SecretCheck) throws -> (SendTarget, JSON) {
        guard adapter.kind == .pagespace else {
            throw ToolError(.usage, "--answer answers PageSpace's questions (ask_user); the \(adapter.kind.rawValue) API asks none")
        }
        let source = try existingSource(adapter, page: page, toDo: "answer in")
        let recent = try adapter.historyPage(source, query: HistoryQuery(limit: 1)).messages
        guard let last = recent.last, last["role"]?.stringValue == "assistant", case .object(var message) = last,
              let parts = last["parts"]?.arrayValue,
              parts.contains(where: { Self.isPendingQuestion($0) }) else {
            throw ToolError(.notFound, "the conversation's last reply asks no question: there is nothing for --answer to answer")
        }
        let texts = try answer.map { try secrets.pass($0, from: "--answer") }
        // The server takes an answer of at most 2000 characters (askUserOutputSchema,
        // ask-user-tools.ts:41-49) and drops a longer one without a word.
        if let long = texts.first(where: { $0.count > 2000 }) {
            throw ToolError(.usage, "--answer takes at most 2000 characters (\(long.count) given)")
        }
        var remaining = texts[...]
        let asked = parts.filter(Self.isPendingQuestion).reduce(0) { $0 + ($1["input"]?["questions"]?.arrayValue?.count ?? 0) }
        guard asked == texts.count else {
            throw ToolError(.usage, "the assistant asks \(asked) question\(asked == 1 ? "" : "s"): give --answer once for each, in order (\(texts.count) given)")
        }
        message["parts"] = .array(parts.map { part in
            guard Self.isPendingQuestion(part), case .object(var answered) = part else { return part }
            let answers = (part["input"]?["questions"]?.arrayValue ?? []).map { question -> JSON in
                let text = remaining.popFirst() ?? ""
                let labels = (question["options"]?.arrayValue ?? []).compactMap { $0["label"]?.stringValue }
                var answer = JSONObject()
                answer["header"] = question["header"] ?? ""
                answer["question"] = question["question"] ?? ""
                answer[labels.contains(text) ? "selectedLabel" : "otherText"] = .string(text)
                return .object(answer)
            }
            answered["state"] = "output-available"
            answered["output"] = ["answers": .array(answers)]
            return .object(answered)
        })
        message["createdAt"] = nil
        return (source.target, .object(message))
    }

    private static func isPendingQuestion(_ part: JSON) -> Bool {
        part["type"]?.stringValue == "tool-ask_user" && part["state"]?.stringValue == "input-available"
    }

    /// The conversation --regenerate or --answer works in: --page's (its --conversation), --conversation,
    /// or the Global assistant's most recent.
    private func existingSource(_ adapter: APIAdapter, page: String?, toDo: String) throws -> HistorySource {
        if let page {
            return .agent(pageID: page, conversationID: conversation)
        } else if let conversation {
            try adapter.requireConversation(conversation)
            return .global(conversationID: conversation)
        } else {
            guard let id = try adapter.defaultConversationID(creating: nil) else {
                throw ToolError(.notFound, "there is no conversation to \(toDo); name one with --conversation")
            }
            return .global(conversationID: id)
        }
    }

    /// `--resume ID`: the reply's chunks from --from-seq on, as the send's stream would have
    /// carried them, while it is being generated.
    private func follow(_ messageID: String, output: ReplyOutput) throws {
        let adapter = try connection.connect().adapter
        let resuming = try Capabilities.require(adapter, StreamResuming.self, toDo: "join a reply being generated")
        guard resuming.canResumeStreams else {
            throw ToolError(.forbidden, "only a session token (ps_sess_) can join a reply being generated")
        }
        let stream = ResponseStream(output: output, printIDs: false, knowsConversation: true)
        var resumer = StreamResumer(join: StreamJoin(adapter: resuming), stream: stream, conversationID: nil)
        resumer.firstSeq = fromSeq ?? 0
        resumer.afterCut = false
        do {
            try resumer.resume(messageID: messageID, cut: "")
        } catch is ReaderGone {
            throw ExitRequest(.brokenPipe)
        } catch let failure as TransferFailure {
            throw APIErrors.toolError(failure, request: resuming.joinRequest(messageID: messageID, fromSeq: resumer.firstSeq))
        }
        if !stream.sawFinish {
            throw ToolError(.incomplete, "the reply was stopped on the server before its end (no finish chunk)")
        }
        if let asked = stream.questions.last { throw ToolError(.assistantAsks, ResponseStream.questionLine(asked)) }
    }

    private func listActiveStreams() throws {
        let adapter = try connection.connect().adapter
        let resuming = try Capabilities.require(adapter, StreamResuming.self, toDo: "list the replies being generated")
        let writer = RecordWriter()
        for stream in try resuming.activeStreams() { try writer.write(stream) }
    }

    /// Where the client keeps the conversation: the message and the reply rebuilt from the stream.
    /// A reply cut short here (`cutShort` says how) is kept unfinished, marked `incomplete`.
    private func keepTurn(
        _ adapter: APIAdapter, _ target: SendTarget, _ message: JSON, _ stream: ResponseStream, cutShort: String? = nil
    ) throws {
        guard let collector = stream.collector else { return }
        collector.finish(cutShort: cutShort)
        try adapter.keepTurn(target, message: message, reply: collector.reply)
    }

    /// The arguments; stdin when there are none (or just `-`); the arguments then the piped
    /// text when there are both (a terminal on stdin is not piped input).
    /// Each piece passes `secrets` (the check names it: the message, stdin).
    private func messageText(_ secrets: SecretCheck) throws -> String {
        let fromStdin = words.isEmpty || words == ["-"]
        let message = fromStdin ? "" : try secrets.pass(words.joined(separator: " "), from: "the message")
        if history == "-" { return message }
        if fromStdin {
            return try secrets.pass(try StandardInputText.read(usage: "usage: ps-send MESSAGE..., or: echo MESSAGE | ps-send"), from: "stdin")
        } else if Terminal.isTerminal(0) {
            return message
        }
        let piped = try secrets.pass(try StandardInputText.readPiped(
            limit: maxStdinBytes, tooLong: "the piped input is over \(maxStdinBytes) bytes; send less, or raise --max-stdin-bytes"), from: "stdin")
        return piped.isEmpty ? message : message + "\n\n" + piped
    }

    private func sendTarget(_ adapter: APIAdapter, page: String?, text: String, model: String?) throws -> SendTarget {
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
        case .notStopped("not_found", _):
            // The turn ended a beat before the abort (abort-stream-anywhere.ts:28-32, 60-62), or
            // had not started: the server then stops the next send to the conversation within
            // 30 seconds (:162-177, lib/ai/core/pending-abort-intents.ts:40).
            Diagnostics.writeLine("ps-send: the turn had already ended on the server (or not yet started); "
                + "the server stops the next send to this conversation made within 30 seconds")
        case .notStopped("unconfirmed", _):
            // Found, asked to stop, and still generating (abort-stream-anywhere.ts:34-38, 64-66).
            Diagnostics.warning("the server could not confirm that the turn stopped: it may still be running "
                + "(and using credits); see ps-send --list-streams, or stop it in the browser")
        case .notStopped(let code, let reason):
            let detail = [code, reason].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
            Diagnostics.warning("the server did not confirm that it stopped the turn" + (detail.isEmpty ? "" : " (\(TerminalSafeText.sanitize(detail)))"))
        case .unsupported(let why):
            Diagnostics.warning(why)
        }
    }
}

extension HistorySource {
    var target: SendTarget {
        switch self {
        case .global(let id): return .global(conversationID: id)
        case .agent(let page, let id): return .agent(pageID: page, conversationID: id)
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

extension ReplyOutputMode: EnumerableFlag {}
