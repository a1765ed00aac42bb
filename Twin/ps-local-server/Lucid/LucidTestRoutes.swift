import Hummingbird
import PSCore

/// Test data for the lucid dialect (no credentials, like every /_test route):
/// `POST /_test/lucid/messages {"conversation_id","count","per_timestamp"}` appends `count`
/// alternating user/assistant messages after the newest, `per_timestamp` of them (default 1)
/// sharing one created_at; `DELETE /_test/lucid/messages/ID` removes one message.
struct LucidTestRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        router.post("/_test/lucid/messages") { request, _ in
            var request = request
            let spec = try await request.jsonBody()
            guard let id = spec["conversation_id"]?.stringValue,
                  let count = spec["count"]?.intValue.map({ Int($0) }), (0...1_000_000).contains(count) else {
                throw Refusal.badRequest("give conversation_id and count (0-1000000)")
            }
            let perTimestamp = max(1, Int(spec["per_timestamp"]?.intValue ?? 1))
            guard let added = state.lucid.appendSeeded(count: count, perTimestamp: perTimestamp, to: id) else {
                throw LucidError.notFound("Conversation")
            }
            return Reply.json(["added": .integer(Int64(added))])
        }
        router.delete("/_test/lucid/messages/:id") { _, context in
            guard state.lucid.deleteMessage(context.parameters.get("id") ?? "") else { throw LucidError.notFound("Message") }
            return Reply.json(["deleted": true])
        }
    }
}
