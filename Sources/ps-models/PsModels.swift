import ArgumentParser
import PSCore
import PSNet

@main
struct PsModels: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-models",
        abstract: "List the models a server offers.",
        usage: "ps-models [<options>]",
        discussion: """
            Writes one record per model, such as \
            {"id":"llama3.2","ownedBy":"library","created":1732000000} (ownedBy, and created in \
            seconds since 1970, when the server says), in the server's order, each flushed as \
            it is written; on a terminal, a readable table instead. An \
            OpenAI-compatible server answers GET /models; on PageSpace's own OpenAI-compatible \
            API (a server ending in /api/v1, an MCP key) the models are its AI agents, \
            ps-agent://<pageId>, one per AI_CHAT page the key may use. On the current PageSpace \
            API itself, the models of its public catalog (GET /api/ai/models, no credential \
            needed), ownedBy their provider: the pair ps-settings --set provider=... --set \
            model=... takes (Ollama's and LM Studio's are found at run time and not listed). An \
            API that cannot list models exits 2 and says so.

            The id is what ps-send --model and ps-auth set-model take.

            EXAMPLES:
              ps-models
              ps-models --profile ollama | jq -r .id
              ps-auth set-model "$(ps-models | jq -r .id | head -n 1)"

            \(ConnectionOptions.environmentHelp)

            \(ExitStatus.helpText([.success, .failure, .usage, .authenticationNeeded, .forbidden, .notFound,
                                   .rateLimited, .serverError, .networkError, .interrupted, .brokenPipe]))
            """)

    static func main() { runAsTool() }

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        Interrupt.install()
        let adapter = try connection.connect().adapter
        let listing = try Capabilities.require(adapter, ModelListing.self, toDo: "list models")
        let models = try listing.listModels()
        let writer = RecordWriter()
        if Terminal.isTerminal(1) {
            try writer.writeText(ModelTable(models).render(width: Terminal.width(fd: 1)))
        } else {
            for model in models { try writer.write(model.record) }
        }
    }
}
