import ArgumentParser
import PSCore
import PSNet
import PSRender

struct Ask: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ask an agent and write its whole answer as a UI message stream.",
        usage: "ps-agents ask <agent> [<question> ...] [--conversation <id>] [<options>]",
        discussion: """
            The question is the arguments after AGENT joined by spaces, or stdin when there \
            are none. The answer comes whole (no streaming: the server's consult call) and is \
            written as the Server-Sent Events of the AI SDK's UI message stream, as ps-send \
            writes them: start (with the conversationId in its messageMetadata), the text, \
            finish, [DONE]. On a terminal the answer is shown rendered instead, as | ps-sse | \
            ps-parts | ps-render would show it (--raw: the stream all the same; --render: \
            rendered into a pipe too). Without --conversation a new conversation is made; --print-ids \
            says its id on stderr (conversation=ID) so that the next ask can continue it. Never \
            retried: the agent may already have answered.

            EXAMPLES:
              ps-agents ask "Research Assistant" "What changed this week?" | ps-sse \\
                  | ps-parts | ps-render
              ps-agents ask --print-ids page_123 "Start a plan" 2>ids.txt | ps-sse \\
                  | ps-parts --final
              echo "And the risks?" | ps-agents ask page_123 --conversation conv_1 \\
                  | ps-sse | ps-parts | ps-render
            """)

    @OptionGroup var connection: ConnectionOptions

    @Option(name: .long, help: ArgumentHelp("Continue this conversation with the agent.", valueName: "id"), completion: LocalCompletions.conversations, transform: IDArgument.nonEmpty)
    var conversation: String?

    @Flag(name: .long, help: "Print conversation=ID and message=ID lines on stderr, for scripts.")
    var printIds = false

    @Flag(help: "--raw: write the raw event stream even on a terminal; --render: show the answer rendered even in a pipe (default: rendered on a terminal, raw otherwise).")
    var output: ReplyOutputMode?

    @Argument(help: ArgumentHelp("The agent: its page id or its title.", valueName: "agent"), transform: IDArgument.nonEmpty)
    var agent: String

    @Argument(help: ArgumentHelp("The question (default: read from stdin).", valueName: "question"))
    var words: [String] = []

    func run() throws {
        Interrupt.install()
        let question = try questionText()
        let adapter = try connection.connect().adapter
        let consulting = try Capabilities.require(adapter, AgentConsulting.self, toDo: "ask an agent without streaming")
        let found = try AgentFinder.find(agent, adapter: adapter)
        let answer = try consulting.consult(agentID: found.id, question: question, conversationID: conversation)
        let messageID = RandomID.messageID()
        if printIds {
            if let id = answer.conversationID { Diagnostics.writeLine("conversation=\(id)") }
            Diagnostics.writeLine("message=\(messageID)")
        }
        let metadata: JSON? = answer.conversationID.map { ["conversationId": .string($0)] }
        let bytes = WholeAnswerStream.bytes(messageID: messageID, text: answer.text, metadata: metadata)
        let output = ReplyOutputMode.makeOutput(self.output)
        do {
            try bytes.withUnsafeBytes { try output.write($0) }
        } catch is ReplyOutputClosed {
            throw ExitRequest(.brokenPipe)
        }
        try output.finish()
    }

    private func questionText() throws -> String {
        guard words.isEmpty || words == ["-"] else { return words.joined(separator: " ") }
        return try StandardInputText.read(
            usage: "usage: ps-agents ask AGENT QUESTION..., or: echo QUESTION | ps-agents ask AGENT",
            limit: 1 << 20, tooLong: "the question on stdin is over 1 MiB")
    }
}

extension ReplyOutputMode: EnumerableFlag {}
