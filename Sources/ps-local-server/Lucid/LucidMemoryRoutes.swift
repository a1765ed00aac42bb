import Hummingbird
import PSCore

/// The lucid dialect's facts and summaries (see LucidRoutes for where each behaviour comes
/// from). Extraction, search and summaries are deterministic stand-ins for a model's:
/// LucidFactExtractor, LucidWords, LucidSummaryWriter.
struct LucidMemoryRoutes {
    let state: ServerState
    var store: LucidStore { state.lucid }

    func register(on router: Router<ServerContext>) {
        // Guide: POST /v1/facts/extract {user_id, conversation_id, limit} → 201
        // {extracted, created, count, message}; `limit`: how many of the latest messages are read.
        router.post("/v1/facts/extract") { request, _ in
            var request = request
            var body = try await LucidBody.read(&request)
            let userID = body.string("user_id", required: true)
            let conversationID = body.string("conversation_id", required: true)
            let limit = body.int("limit", default: 20, range: 1...LucidRoutes.maxLimit)
            try body.validate()
            guard store.user(userID!) != nil else { throw LucidError.notFound("User") }
            guard let conversation = store.conversation(conversationID!), conversation.userID == userID else {
                throw LucidError.notFound("Conversation")
            }
            let asked = conversation.messages.suffix(limit).filter { $0.role == "user" }.map(\.content)
            let extracted = LucidFactExtractor.extract(fromUserMessages: asked)
            let created = store.addFacts(extracted, userID: userID!)
            return Reply.json([
                "extracted": .array(extracted.map(LucidJSON.extracted)), "created": .array(created.map(LucidJSON.fact)),
                "count": .integer(Int64(extracted.count)),
                "message": .string("Extracted \(extracted.count) facts, created \(created.count) successfully"),
            ], status: .created)
        }

        // Guide: GET /v1/users/{user_id}/facts?limit=50&offset=0&is_active=true (all without is_active).
        router.get("/v1/users/:userId/facts") { request, context in
            var query = LucidQuery(request)
            let limit = query.int("limit", default: 50, range: 1...LucidRoutes.maxLimit)
            let offset = query.int("offset", default: 0, range: 0...Int.max)
            let active = query.bool("is_active")
            try query.validate()
            let userID = context.parameters.get("userId") ?? ""
            guard store.user(userID) != nil else { throw LucidError.notFound("User") }
            let page = store.facts(ofUser: userID, active: active, limit: limit, offset: offset)
            return Reply.json([
                "facts": .array(page.map(LucidJSON.fact)), "count": .integer(Int64(page.count)),
                "limit": .integer(Int64(limit)), "offset": .integer(Int64(offset)),
            ])
        }

        // Guide: PATCH /v1/facts/{fact_id} {is_active} → the updated fact.
        router.patch("/v1/facts/:id") { request, context in
            var request = request
            var body = try await LucidBody.read(&request)
            let active = body.bool("is_active")
            if active == nil && body.errors.isEmpty {
                throw LucidError.validation([LucidError.item("missing", ["body", "is_active"], "Field required", input: body.json)])
            }
            try body.validate()
            guard let fact = store.setFact(context.parameters.get("id") ?? "", active: active!) else {
                throw LucidError.notFound("Fact")
            }
            return Reply.json(LucidJSON.fact(fact))
        }

        // Guide: POST /v1/facts/search {query, user_id, limit, min_similarity} → {results:[{fact,
        // similarity}], count, query}, best first; active facts only.
        router.post("/v1/facts/search") { request, _ in
            var request = request
            var body = try await LucidBody.read(&request)
            let text = body.string("query", required: true, minLength: 1)
            let userID = body.string("user_id", required: true)
            let limit = body.int("limit", default: 10, range: 1...100)
            let minimum = body.double("min_similarity", default: 0.7, range: 0...1)
            try body.validate()
            guard store.user(userID!) != nil else { throw LucidError.notFound("User") }
            let scored = store.activeFacts(ofUser: userID!).enumerated()
                .map { (index: $0.offset, fact: $0.element, similarity: LucidWords.similarity(text!, $0.element.content)) }
                .filter { $0.similarity >= minimum }
                .sorted { ($0.similarity, -$0.index) > ($1.similarity, -$1.index) }
                .prefix(limit)
            return Reply.json([
                "results": .array(scored.map { ["fact": LucidJSON.fact($0.fact), "similarity": .real($0.similarity)] }),
                "count": .integer(Int64(scored.count)), "query": .string(text!),
            ])
        }

        // Guide: POST /v1/summaries/generate {conversation_id, user_id, message_count} → 201, the
        // summary of the latest `message_count` messages; a conversation without messages: 400.
        router.post("/v1/summaries/generate") { request, _ in
            var request = request
            var body = try await LucidBody.read(&request)
            let conversationID = body.string("conversation_id", required: true)
            let userID = body.string("user_id", required: true)
            let count = body.int("message_count", default: 20, range: 1...LucidRoutes.maxLimit)
            try body.validate()
            guard store.user(userID!) != nil else { throw LucidError.notFound("User") }
            guard let conversation = store.conversation(conversationID!), conversation.userID == userID else {
                throw LucidError.notFound("Conversation")
            }
            let messages = Array(conversation.messages.suffix(count))
            guard !messages.isEmpty else { throw LucidError.detail(.badRequest, "Conversation has no messages to summarize") }
            let text = LucidSummaryWriter.write(messages, title: conversation.title)
            let summary = LucidStore.Summary(
                id: LucidStore.newID(), conversationID: conversation.id, userID: userID!, userPerspective: text.userPerspective,
                modelPerspective: text.modelPerspective, overview: text.overview, messageCount: messages.count,
                createdAt: Timestamp.now())
            guard store.update(conversation.id, { $0.summaries.append(summary) }) != nil else {
                throw LucidError.notFound("Conversation")
            }
            return Reply.json(LucidJSON.summary(summary), status: .created)
        }

        // Guide: GET /v1/conversations/{id}/summaries, and the older route
        // /v1/summaries/conversations/{id}: {summaries, count, conversation_id, limit, offset}, oldest first.
        router.get("/v1/conversations/:id/summaries") { request, context in
            try summaries(request, id: context.parameters.get("id") ?? "")
        }
        router.get("/v1/summaries/conversations/:id") { request, context in
            try summaries(request, id: context.parameters.get("id") ?? "")
        }
    }

    private func summaries(_ request: Request, id: String) throws -> Response {
        var query = LucidQuery(request)
        let limit = query.int("limit", default: 50, range: 1...LucidRoutes.maxLimit)
        let offset = query.int("offset", default: 0, range: 0...Int.max)
        try query.validate()
        guard let conversation = store.conversation(id) else { throw LucidError.notFound("Conversation") }
        let page = LucidStore.slice(conversation.summaries, limit: limit, offset: offset)
        return Reply.json([
            "summaries": .array(page.map(LucidJSON.summary)), "count": .integer(Int64(page.count)),
            "conversation_id": .string(id), "limit": .integer(Int64(limit)), "offset": .integer(Int64(offset)),
        ])
    }
}
