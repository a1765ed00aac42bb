import ArgumentParser
import PSCore
import PSNet

@main
struct PsSettings: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-settings",
        abstract: "Show or change the user's settings on the server (the model, the approval mode, ...).",
        usage: "ps-settings [<options>] [--set <key=value> ...]\n       ps-settings [<options>] --subscription",
        discussion: """
            Without --set, prints the settings the server keeps for the user: one NDJSON \
            record (a JSON object) on stdout, or "key: value" lines when stdout is a terminal \
            (yes or no for booleans, other values that are not strings as JSON), and a table \
            for a value made of named entries, such as providers. With --set KEY=VALUE (repeatable), asks the \
            server to change those keys, then prints the settings as they are after the change. \
            A VALUE that parses as JSON is sent as that JSON (true, 3, null, {"a":1}); anything \
            else as a string. A value the server refuses is exit 2, in the server's words.

            Only APIs that keep settings have them; others exit 2. The Gemini mobile API: GET \
            and PUT /settings; it keeps any key and value unchecked (approvalMode auto_edit until \
            changed), and its conversations do not read them. The current \
            PageSpace API: GET /api/ai/settings (currentProvider, currentModel, \
            userSubscriptionTier, providers and whether each isAvailable), with a browser \
            session token only (an MCP key is exit 4); --set provider=NAME --set model=ID \
            changes the selection (PATCH; a model alone keeps the provider; Ollama and LM Studio \
            need no model). An unknown provider or model, or a provider this deployment cannot \
            run, is exit 2 in the server's words; a model that needs a paid plan exit 5 (on the \
            free plan of a deployment that bills, only the free models: Ollama's and LM Studio's \
            models need a paid plan too). The \
            legacy PageSpace API has the same GET and PATCH, and keeps the user's own provider \
            API keys: --api-key-stdin PROVIDER reads the key from the first line of stdin and \
            saves it (POST /api/ai/settings), printing the server's answer, which never holds \
            the key; the current API no longer takes keys (exit 2).

            --subscription prints the user's plan instead (the current PageSpace API, GET \
            /api/subscriptions/status, a browser session token only: an MCP key is exit 4): \
            one record {subscriptionTier, stripeCustomerId, subscription, storage:{used, quota, \
            tier}}, subscription being null without a paid one, else {status, \
            currentPeriodStart, currentPeriodEnd, cancelAtPeriodEnd, scheduledPriceId, \
            scheduledChangeDate}, sizes in bytes; on a terminal, "plan: free", "subscription: \
            none" (or "active, renews DATE"), "storage: 12 MB of 500 MB used (free tier)" lines. \
            Other APIs exit 2.

            EXAMPLES:
              ps-settings
              ps-settings --set approvalMode=yolo --set model=gemini-2.5-flash
              ps-settings --set provider=google --set model=google/gemini-2.5-flash
              ps-settings --api-key-stdin openai < ~/.secrets/openai-key
              ps-settings | jq -r .model
              ps-settings --subscription | jq '.storage.quota - .storage.used'

            \(ConnectionOptions.environmentHelp)

            \(ExitStatus.helpText([.success, .failure, .usage, .authenticationNeeded, .forbidden, .notFound, .rateLimited,
                                   .serverError, .networkError, .interrupted, .brokenPipe]))
            """,
        version: ToolVersion.line)

    static func main() { runAsTool() }

    @OptionGroup var connection: ConnectionOptions

    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Change a setting: KEY=VALUE, the value as JSON when it parses, else a string (repeatable).",
        valueName: "key=value"))
    var changes: [String] = []

    @Option(name: .customLong("api-key-stdin"), help: ArgumentHelp(
        "Save an API key for this provider, read from the first line of standard input (never an argument).",
        valueName: "provider"))
    var apiKeyProvider: String?

    @Flag(name: .long, help: "Show the user's plan, subscription and storage instead of the settings.")
    var subscription = false

    @Flag(name: .long, help: "Print one NDJSON record even on a terminal.")
    var json = false

    func validate() throws {
        if apiKeyProvider != nil && !changes.isEmpty { throw ValidationError("--api-key-stdin goes alone, without --set") }
        if subscription && (apiKeyProvider != nil || !changes.isEmpty) {
            throw ValidationError("--subscription goes alone, without --set or --api-key-stdin")
        }
        for change in changes {
            guard let equals = change.firstIndex(of: "="), equals != change.startIndex else {
                throw ValidationError("--set takes KEY=VALUE, not \(change)")
            }
        }
    }

    /// `KEY=VALUE` pairs as a JSON object, in the order given (a later one wins).
    static func change(from pairs: [String]) -> JSONObject {
        var object = JSONObject()
        for pair in pairs {
            let equals = pair.firstIndex(of: "=")!
            let value = String(pair[pair.index(after: equals)...])
            object[String(pair[..<equals])] = (try? JSON.parse(value)) ?? .string(value)
        }
        return object
    }

    func run() throws {
        Interrupt.install()
        let adapter = try connection.connect().adapter
        if subscription {
            let status = try Capabilities.require(adapter, SubscriptionAPI.self, toDo: "show the subscription").subscriptionStatus()
            let out = RecordWriter()
            guard !json, Terminal.isTerminal(1) else { return try out.write(status) }
            return try out.writeText(SubscriptionSummary(status: status).lines.map { $0 + "\n" }.joined())
        }
        if let provider = apiKeyProvider {
            let saving = try Capabilities.require(adapter, ProviderKeySaving.self, toDo: "save provider API keys")
            let key = Terminal.isTerminal(0)
                ? try SecretInput.fromTerminal(prompt: "API key for \(TerminalSafeText.sanitize(provider)): ")
                : try SecretInput.fromStandardInput()
            guard !key.isEmpty else { throw ToolError(.usage, "no API key on stdin") }
            try RecordWriter().write(try saving.saveProviderKey(provider: provider, key: key))
            return
        }
        let settings = try Capabilities.require(adapter, SettingsAPI.self, toDo: "keep settings")
        let shown = changes.isEmpty ? try settings.showSettings() : try settings.changeSettings(Self.change(from: changes))
        let out = RecordWriter()
        guard !json, Terminal.isTerminal(1), let object = shown.objectValue else {
            try out.write(shown)
            return
        }
        try out.writeText(SettingsText(settings: object).render(width: Terminal.width(fd: 1)))
    }
}
