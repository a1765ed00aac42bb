import Hummingbird
import HummingbirdCore
import PSCore

/// The history GETs of every dialect and assistant share this: paging, the rendering of the
/// dialect, and the interrupted-export fault.
struct HistoryResponder {
    let state: ServerState

    func page(
        of conversationID: String, request: Request, context: ServerContext,
        unknownDirection: HistoryQuery.UnknownDirection = .meansAfter
    ) async throws -> Response {
        let query = HistoryQuery(request.uri, unknownDirection: unknownDirection)
        try await dropIfArmed(context)
        guard let found = state.store.page(of: conversationID, query: query, compoundCursor: state.dialect.isCurrent)
        else {
            if state.dialect.isCurrent { return Reply.json(HistoryPage.missingConversationBody) }
            return Reply.json(HistoryPage.empty.body(query: query, dialect: state.dialect, rev: nil))
        }
        return Reply.json(found.page.body(query: query, dialect: state.dialect, rev: found.rev))
    }

    /// The `dropHistory` fault: close the connection without an answer.
    func dropIfArmed(_ context: ServerContext) async throws {
        guard state.faults.historyPageShouldDrop() else { return }
        try? await context.channel.close()
        throw ConnectionDropped()
    }
}

extension HistoryPage {
    /// No messages at all.
    static let empty = HistoryPage(
        Conversation(id: "", title: "", kind: .global, createdAt: 0), query: HistoryQuery.none, compoundCursor: true)
}

extension HistoryQuery {
    static let none = HistoryQuery(URI("/"), unknownDirection: .meansAfter)
}
