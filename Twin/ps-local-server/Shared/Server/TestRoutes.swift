import Hummingbird
import PSCore

/// `/_test/*`: arm faults and read the request log. Only this test server has them, and
/// they need no credentials.
struct TestRoutes {
    let state: ServerState

    func register(on router: Router<ServerContext>) {
        router.post("/_test/faults") { request, _ in
            var request = request
            let spec = try await request.jsonBody()
            try state.faults.arm(spec)
            return Reply.json(["armed": spec])
        }
        router.delete("/_test/faults") { _, _ in
            state.faults.clear()
            return Reply.json(["cleared": true])
        }
        router.get("/_test/requests") { _, _ in
            Reply.json(.array(state.requests.all))
        }
        router.post("/_test/device") { request, _ in
            var request = request
            let spec = try await request.jsonBody()
            try state.deviceGrants.arm(spec)
            return Reply.json(["armed": spec])
        }
        // A confirmed step-up: {actionBinding:{…}} → {stepUpToken}, bound to that action.
        router.post("/_test/step-up") { request, _ in
            var request = request
            guard let binding = OAuthGrants.ActionBinding(try await request.jsonBody()["actionBinding"]) else {
                throw Refusal.badRequest("give actionBinding, an object of strings")
            }
            return Reply.json(["stepUpToken": .string(state.grants.mintStepUp(for: binding))])
        }
        router.post("/_test/messages") { request, _ in
            var request = request
            let spec = try await request.jsonBody()
            guard let conversationID = spec["conversationId"]?.stringValue,
                  let count = spec["count"]?.intValue.map({ Int($0) }), (0...100_000).contains(count) else {
                throw Refusal.badRequest("give conversationId and count (0-100000)")
            }
            let sameTimestamp = spec["sameTimestamp"]?.boolValue ?? false
            let text = spec["text"]?.stringValue
            guard let newest = state.store.update(conversationID, { $0.messages.last?.createdAt }) else {
                throw Refusal.notFound("Conversation not found")
            }
            let messages = testMessages(count, after: newest ?? Timestamp.now(), sameTimestamp: sameTimestamp, text: text)
            // One write each, announced as the server announces every write.
            for message in messages { state.store.append(message, to: conversationID) }
            return Reply.json(["ids": .array(messages.map { .string($0.id) })])
        }
        router.delete("/_test/messages/:id") { _, context in
            guard state.store.removeMessage(context.parameters.get("id") ?? "") else {
                throw Refusal.notFound("Message not found")
            }
            return Reply.json(["deleted": true])
        }
        router.delete("/_test/requests") { _, _ in
            state.requests.clear()
            return Reply.json(["cleared": true])
        }
    }

    /// New history after the newest message: what other devices wrote between two exports.
    /// `text`, when given, is every message's text (a long one makes a large message).
    private func testMessages(_ count: Int, after start: Int64, sameTimestamp: Bool, text: String?) -> [StoredMessage] {
        (0..<count).map { index in
            let id = state.ids.nextMessageID()
            let createdAt = sameTimestamp ? start : start + Int64(index + 1) * HistorySeeder.spacing
            let role = index % 2 == 0 ? "user" : "assistant"
            let words = text ?? "\(role == "user" ? "Question" : "Answer") \(id)"
            return StoredMessage(id: id, role: role, parts: [["type": "text", "text": .string(words)]], createdAt: createdAt)
        }
    }
}
