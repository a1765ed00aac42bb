import ArgumentParser
import PSArchive

/// The options that narrow a search in the archive: ps-search --archive's and
/// ps-archive-postgres search's.
public struct ArchiveFilters: ParsableArguments {
    public init() {}

    @Option(name: .long, help: ArgumentHelp("Only archived messages from this source.", valueName: "name"))
    var source: String?

    @Option(name: .long, help: ArgumentHelp("Only archived messages of this conversation.", valueName: "id"))
    var conversation: String?

    @Option(name: .long, help: ArgumentHelp("Only archived messages with this role: user, assistant or system.",
                                            valueName: "role"), completion: .list(["user", "assistant", "system"]))
    var role: String?

    @Option(name: .long, help: ArgumentHelp("Only archived messages created at or after this time, e.g. 2025-11-01.",
                                            valueName: "time"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp("Only archived messages created before this time.", valueName: "time"))
    var until: String?

    /// Whether any of them was given.
    public var any: Bool { source != nil || conversation != nil || role != nil || since != nil || until != nil }

    /// The search for `text`, narrowed by them, at most `limit` hits (default 20).
    public func query(_ text: String, limit: Int?) -> ArchiveQuery {
        ArchiveQuery(text: text, source: source, conversationId: conversation, role: role, since: since, until: until,
                     limit: limit ?? 20)
    }
}
