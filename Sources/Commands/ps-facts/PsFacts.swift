import ArgumentParser
import PSCore
import PSNet

@main
struct PsFacts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-facts",
        abstract: "List, extract, switch off or on, and search the facts a backend has learned about you (Lucid).",
        discussion: """
            A backend that remembers its user (Lucid) keeps facts about them: "User is a \
            nurse", with a category and a confidence. They are extracted from a conversation \
            when asked (ps-facts extract, or ps-send --extract-facts-every N), listed, switched \
            off when wrong (ps-facts off ID) and searched by meaning.

            Writes fact records (NDJSON, one a line, as the server gives them: id, content, \
            category, confidence, is_active, created_at); on a terminal, a readable table \
            instead. Search results are {fact, similarity} records, best first. An API that \
            keeps no facts is refused with exit status 2.

            EXAMPLES:
              ps-facts
              ps-facts --all
              ps-facts extract --conversation CONV_ID
              ps-facts off FACT_ID
              ps-facts search "what do I do for a living" --min-similarity 0.3
              ps-facts | jq -r 'select(.category == "preference") | .content'

            \(ConnectionOptions.environmentHelp)

            \(ExitStatus.helpText([.success, .failure, .usage, .authenticationNeeded, .notFound, .rateLimited,
                                   .serverError, .networkError, .interrupted, .brokenPipe]))
            """,
        version: ToolVersion.line,
        subcommands: [List.self, Extract.self, Off.self, On.self, Search.self],
        defaultSubcommand: List.self)

    static func main() { runAsTool() }

    /// The adapter, or exit 2 when its API keeps no facts.
    static func facts(_ connection: ConnectionOptions) throws -> FactsAPI {
        Interrupt.install()
        let adapter = try connection.connect().adapter
        return try Capabilities.require(adapter, FactsAPI.self, toDo: "keep facts about its user")
    }
}

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the facts (the active ones unless --all).", usage: "ps-facts [list] [<options>]")

    @OptionGroup var connection: ConnectionOptions

    @Flag(name: .long, help: "Also the facts switched off.")
    var all = false

    func run() throws {
        let facts = try PsFacts.facts(connection)
        var output = FactOutput()
        try facts.listFacts(includeInactive: all) { try output.add($0, similarity: nil) }
        try output.finish(empty: all ? "No facts." : "No active facts.")
    }
}

struct Extract: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Have the server extract facts from a conversation; writes the facts it created.",
        usage: "ps-facts extract [--conversation <id>] [--limit <n>] [<options>]",
        discussion: "A note on stderr says how many were found and stored (Lucid stores every fact it extracts, also one it had already).")

    @OptionGroup var connection: ConnectionOptions

    @Option(name: .long, help: ArgumentHelp("The conversation (default: the current one).", valueName: "id"), transform: IDArgument.nonEmpty)
    var conversation: String?

    @Option(name: .long, help: ArgumentHelp("How many of its latest messages the server reads, 1 to 100 (default: the server's, 20).",
                                            valueName: "n"))
    var limit: Int?

    func validate() throws {
        if let limit, !(1...100).contains(limit) { throw ValidationError("--limit must be between 1 and 100 (Lucid reads at most 100 messages)") }
    }

    func run() throws {
        let facts = try PsFacts.facts(connection)
        let id = try CurrentConversation.resolve(conversation, adapter: facts)
        let extraction = try facts.extractFacts(conversationID: id, messageLimit: limit)
        Diagnostics.writeLine("ps-facts: extracted \(extraction.extracted.count) facts, stored \(extraction.created.count)")
        var output = FactOutput()
        for fact in extraction.created { try output.add(fact, similarity: nil) }
        try output.finish(empty: "No new facts.")
    }
}

struct Off: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Switch a fact off (it is wrong, or no longer true); writes it.", usage: "ps-facts off <fact-id> [<options>]")

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The fact's id.", valueName: "fact-id"), transform: IDArgument.nonEmpty)
    var id: String

    func run() throws {
        try FactOutput.writeOne(try PsFacts.facts(connection).setFact(id, active: false))
    }
}

struct On: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Switch a fact back on; writes it.", usage: "ps-facts on <fact-id> [<options>]")

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The fact's id.", valueName: "fact-id"), transform: IDArgument.nonEmpty)
    var id: String

    func run() throws {
        try FactOutput.writeOne(try PsFacts.facts(connection).setFact(id, active: true))
    }
}

struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The facts most like a question, best first ({fact, similarity} records).",
        usage: "ps-facts search <query> ... [--min-similarity <x>] [--limit <n>]")

    @OptionGroup var connection: ConnectionOptions

    @Option(name: .long, help: ArgumentHelp("Leave out facts less similar than this (0 to 1; default: the server's, 0.82).",
                                            valueName: "x"))
    var minSimilarity: Double?

    @Option(name: .long, help: ArgumentHelp("At most this many results, 1 to 100 (default: the server's, 10).", valueName: "n"))
    var limit: Int?

    @Argument(help: ArgumentHelp("What to look for (the words are joined by spaces).", valueName: "query"))
    var words: [String]

    func validate() throws {
        if words.joined().allSatisfy(\.isWhitespace) { throw ValidationError("give the words to search for") }
        if let minSimilarity, !(0...1).contains(minSimilarity) { throw ValidationError("--min-similarity must be between 0 and 1") }
        if let limit, !(1...100).contains(limit) { throw ValidationError("--limit must be between 1 and 100 (Lucid gives at most 100 results)") }
    }

    func run() throws {
        let facts = try PsFacts.facts(connection)
        var output = FactOutput()
        for result in try facts.searchFacts(words.joined(separator: " "), minSimilarity: minSimilarity, limit: limit) {
            if output.asTable {
                try output.add(result["fact"] ?? .null, similarity: result["similarity"]?.doubleValue)
            } else {
                try output.writer.write(result)
            }
        }
        try output.finish(empty: "No fact is that similar.")
    }
}

/// The conversation a subcommand works on: the one named, else the current one.
enum CurrentConversation {
    static func resolve(_ named: String?, adapter: APIAdapter) throws -> String {
        if let named {
            try adapter.requireConversation(named)
            return named
        }
        guard let id = try adapter.defaultConversationID(creating: nil) else {
            throw ToolError(.notFound, "there is no conversation yet; name one with --conversation")
        }
        return id
    }
}
