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
            it is written; on a terminal, a readable table instead (id, owner, and the name and the \
            creation date when the server gives them: PageSpace's catalog has names but no dates). An \
            OpenAI-compatible server answers GET /models; on PageSpace's own OpenAI-compatible \
            API (a server ending in /api/v1, an MCP key) the models are its AI agents, \
            ps-agent://<pageId>, one per AI_CHAT page the key may use. On the current PageSpace \
            API itself, the models of its public catalog (GET /api/ai/models, no credential \
            needed), ownedBy their provider, named by its displayName when that differs from the id, with free (the free plan may run it) and contextWindow where given: the pair ps-settings --set provider=... --set \
            model=... takes (Ollama's and LM Studio's are found at run time and not listed). An \
            API that cannot list models exits 2 and says so.

            --provider ollama or --provider lmstudio lists instead the models of the Ollama or \
            LM Studio server the PageSpace deployment runs with, as it finds them when asked \
            (GET /api/ai/ollama/models, /api/ai/lmstudio/models; a browser session token only, \
            an MCP key is exit 4): records such as \
            {"id":"llama3.2:latest","ownedBy":"ollama","name":"Llama3.2"}, name being PageSpace's \
            display name. When the deployment cannot reach its Ollama, the server offers a \
            fallback list of common models instead: they are written marked "fallback":true, \
            after a warning in the server's words on stderr (exit 0); for LM Studio it has no \
            fallback, exit 9 in its words. A deployment without that server is exit 2, one \
            whose server address it refuses to fetch exit 8. Choosing one of these models \
            (ps-settings --set) needs a paid plan where the deployment bills. (To ask an Ollama server of your \
            own directly, make it a profile of its own: an OpenAI-compatible server.)

            The id is what ps-send --model and ps-auth set-model take.

            EXAMPLES:
              ps-models
              ps-models --provider ollama | jq -r .id
              model=$(ps-models --provider ollama | jq -r .id | head -n 1)
              ps-settings --set provider=ollama --set model="$model"
              ps-models --profile ollama | jq -r .id
              ps-auth set-model "$(ps-models | jq -r .id | head -n 1)"

            \(ConnectionOptions.environmentHelp)

            \(ExitStatus.helpText([.success, .failure, .usage, .authenticationNeeded, .forbidden, .notFound,
                                   .rateLimited, .serverError, .networkError, .interrupted, .brokenPipe]))
            """,
        version: ToolVersion.line)

    static func main() { runAsTool() }

    @OptionGroup var connection: ConnectionOptions

    @Option(help: ArgumentHelp(
        "List the models of the deployment's own server. Ollama or LM Studio, as the PageSpace server finds them.",
        valueName: "ollama|lmstudio"))
    var provider: LocalModelProvider?

    func run() throws {
        Interrupt.install()
        let adapter = try connection.connect().adapter
        guard let provider else {
            let listing = try Capabilities.require(adapter, ModelListing.self, toDo: "list models")
            return try Self.write(try listing.listModels())
        }
        let listing = try Capabilities.require(adapter, LocalModelListing.self, toDo: "list \(provider.displayName)'s models")
        let found = try listing.listLocalModels(provider)
        guard let words = found.unreachable else { return try Self.write(found.models) }
        guard !found.models.isEmpty else {
            throw ToolError(.networkError, "the server cannot reach its \(provider.displayName): \(words)")
        }
        Diagnostics.warning("\(words) (these are the server's fallback models, not the ones \(provider.displayName) has)")
        try Self.write(found.models, fallback: true)
    }

    /// A table on a terminal, else one record per model, each marked `fallback` when it is.
    static func write(_ models: [ModelInfo], fallback: Bool = false) throws {
        let writer = RecordWriter()
        if Terminal.isTerminal(1) {
            return try writer.writeText(ModelTable(models).render(width: Terminal.width(fd: 1)))
        }
        for model in models {
            guard fallback, var record = model.record.objectValue else {
                try writer.write(model.record)
                continue
            }
            record["fallback"] = true
            try writer.write(.object(record))
        }
    }
}
