import Hummingbird
import PSCore

/// The history GETs of every dialect and assistant share this: paging, the rendering of the
/// dialect, and the interrupted-export fault.
struct HistoryResponder {
    let state: ServerState

    func page(of conversationID: String, request: Request, context: ServerContext) async throws -> Response {
        let query = try HistoryQuery(request.uri)
        try await dropIfArmed(context)
        let (page, rev) = state.store.page(of: conversationID, query: query)
        return Reply.json(page.body(query: query, dialect: state.dialect, rev: rev))
    }

    /// The `dropHistory` fault: close the connection without an answer.
    func dropIfArmed(_ context: ServerContext) async throws {
        guard state.faults.historyPageShouldDrop() else { return }
        try? await context.channel.close()
        throw ConnectionDropped()
    }
}
