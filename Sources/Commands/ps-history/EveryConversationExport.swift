import PSCore
import PSNet

/// `--every-conversation`: every conversation the credential reaches, one after another: the
/// Global assistant's (or, on the other backends, the user's) conversations, then each Page AI
/// agent's in each drive where the API lists them. Each conversation's record (from the list,
/// so a reader learns its title) comes before its new messages, which carry its
/// conversationId. One state file covers them all (keyed by conversation), so a conversation
/// made since the last run is exported whole and the others from where they stopped.
struct EveryConversationExport {
    let adapter: APIAdapter
    let writer: RecordWriter
    let pageSize: Int
    let progress: Progress

    func run(state: inout ExportState?) throws {
        var conversations: [(source: HistorySource, record: JSON)] = []
        try adapter.listConversations { record in
            if let id = record["id"]?.stringValue { conversations.append((.global(conversationID: id), record)) }
        }
        if adapter.listsAgentConversations, let directory = adapter as? AgentDirectory {
            for drive in try AgentFinder.drives(directory) {
                for agent in drive.agents {
                    guard let pageID = agent["id"]?.stringValue else { continue }
                    try adapter.listAgentConversations(agentID: pageID) { record in
                        guard let id = record["id"]?.stringValue, var object = record.objectValue else { return }
                        if object["pageId"] == nil { object["pageId"] = .string(pageID) }
                        conversations.append((.agent(pageID: pageID, conversationID: id), .object(object)))
                    }
                }
            }
        }
        var exporter = HistoryExporter(adapter: adapter, writer: writer)
        var total = 0
        var malformed = false
        for (source, record) in conversations {
            guard case .object(var object) = record else { continue }
            // A conversation record has at least an id and a title (ps-ndjson(5)).
            if object["title"] == nil { object["title"] = .null }
            try writer.write(.object(object))
            exporter.conversationID = object["id"]?.stringValue
            exporter.onProgress = { progress.update(total + $0) }
            do {
                total += try exporter.exportAll(source, pageSize: pageSize, state: &state)
            } catch let error as ToolError where error.status == .notFound {
                // Deleted between the list and its export: nothing of it is left to export.
                Diagnostics.warning("conversation \(TerminalSafeText.quoted(exporter.conversationID ?? "")) is gone: \(error.message)")
            } catch let error as ToolError where error.status == .malformedInput {
                // Entries that are not messages: said, and the other conversations still exported.
                Diagnostics.error(error.message)
                malformed = true
            }
        }
        if malformed { throw ExitRequest(.malformedInput) }
    }
}
