import Hummingbird
import PSCore

/// The lucid dialect's facts and summaries, from lucid-agent src/routes/facts.ts and
/// src/routes/summary.ts at 8cdb90b (see LucidRoutes). Extraction, search and summaries are
/// deterministic stand-ins for the model and the embeddings: LucidFactExtractor, LucidWords,
/// LucidSummaryWriter.
struct LucidMemoryRoutes {
    let state: ServerState
    var store: LucidStore { state.lucid }

    func register(on router: Router<ServerContext>) {
        // src/routes/facts.ts:95-194, extractFactsSchema (src/validation/fact.validation.ts:183-207):
        // the latest `limit` messages (default 20, at most 100), user's and assistant's alike;
        // `count` is how many facts were created.
        router.post("/v1/facts/extract") { request, _ in
            var request = request
            var body = try await LucidBody.read(&request)
            let userID = body.uuid("user_id", "user_id must be a valid UUID")
            let conversationID = body.uuid("conversation_id", required: false, "conversation_id must be a valid UUID")
            let messageIDs = body.uuidArray("message_ids", min: (1, "At least one message ID is required"),
                                            max: (50, "Maximum 50 messages can be processed at once"))
            let limit = body.number("limit", integer: true, min: 1, max: Double(LucidLimits.extractMessages))
            try body.validate()
            let messages: [LucidStore.Message]
            // What the model is given: a chosen message's content as it is (facts.ts:105-112, each
            // message of this user's), a conversation's latest with "User: " or "Assistant: "
            // before each (facts.ts:113-125).
            let analysed: [String]
            if let messageIDs, !messageIDs.isEmpty {
                messages = messageIDs.compactMap { store.message($0) }.filter { $0.userID == userID }
                analysed = messages.map(\.content)
            } else if let conversationID {
                messages = store.conversation(conversationID).map { Array($0.messages.suffix(Int(limit ?? 20))) } ?? []
                analysed = messages.map { ($0.role == "user" ? "User: " : "Assistant: ") + $0.content }
            } else {
                throw LucidError.error(.badRequest, "Must provide either conversation_id or message_ids")
            }
            guard !messages.isEmpty else {
                return Reply.json(["extracted": [], "created": [], "count": 0, "message": "No messages found to process"])
            }
            let asked = messages.filter { $0.role == "user" }.map(\.content)
            let extracted = LucidFactExtractor.extract(fromUserMessages: asked)
            // createFact checks the user (fact.service.ts): none is created for a user nobody has.
            let created = store.user(userID!) == nil ? [] : store.addFacts(extracted, userID: userID!)
            // facts.ts:171-174: `m.substring(0, 100) + '...'`, UTF-16 units.
            let samples = analysed.prefix(3).map { JSON.string($0.javaScriptPrefix(100) + "...") }
            return Reply.json([
                "extracted": .array(extracted.map(LucidJSON.extracted)), "created": .array(created.map { LucidJSON.fact($0) }),
                "count": .integer(Int64(created.count)),
                "message": .string("Extracted \(extracted.count) facts, created \(created.count) successfully"),
                "debug": ["messages_analyzed": .integer(Int64(messages.count)), "sample_messages": .array(Array(samples))],
            ], status: .created)
        }

        // src/routes/facts.ts:246-279, factListQuerySchema (fact.validation.ts:95-130): the route
        // that works. `is_active` is true only for "true"; limit 1-500, default 50.
        router.get("/v1/facts/users/:userId/facts") { request, context in
            let userID = try LucidError.requireUUID(
                context.parameters.get("userId") ?? "", field: "user_id", "User ID must be a valid UUID")
            var query = LucidQuery(request)
            let limit = query.limit(default: 50, max: LucidLimits.listPage)
            let offset = query.offset()
            let category = request.query("category")
            if let category, !LucidMemoryRoutes.categories.contains(category) {
                query.refuse("category", LucidMemoryRoutes.enumMessage(category))
            }
            // min_confidence: parseFloat, then 0-1 (NaN fails too): "0.5abc" is 0.5, "abc" is
            // refused (src/validation/fact.validation.ts:124-130 at 8cdb90b).
            let confidenceText = request.query("min_confidence").flatMap { $0.isEmpty ? nil : $0 }
            let minConfidence = confidenceText.flatMap(LucidMemoryRoutes.parseFloat)
            if confidenceText != nil, !(0...1).contains(minConfidence ?? -1) {
                query.refuse("min_confidence", "min_confidence must be between 0 and 1")
            }
            try query.validate()
            let active = request.query("is_active").map { $0 == "true" }
            let page = store.facts(ofUser: userID, active: active, category: category, minConfidence: minConfidence,
                                   limit: limit, offset: offset)
            return Reply.json([
                "facts": .array(page.map { LucidJSON.fact($0) }), "count": .integer(Int64(page.count)),
                "limit": .integer(Int64(limit)), "offset": .integer(Int64(offset)),
            ])
        }
        // The guide's GET /v1/users/{user_id}/facts is not served: src/index.ts:98 mounts the
        // facts router there, but its list route is `/users/:user_id/facts` (facts.ts:246), so
        // the path falls through to the 404 handler (index.ts:125). At HEAD (718cfb9) the route
        // is `/` (facts.ts:240) but the router does not merge the mount's params: 400.

        // src/routes/facts.ts:356-385, updateFactSchema (fact.validation.ts:56-76): every field
        // optional, each given one stored (fact.service.ts:360-414).
        router.patch("/v1/facts/:id") { request, context in
            var request = request
            var body = try await LucidBody.read(&request)
            var change = LucidStore.FactChange()
            change.content = body.string("content", [LucidBody.minLength(1, "content cannot be empty"),
                                                      LucidBody.maxLength(1000, "content must be less than 1000 characters")])
            change.category = body.category("category")
            change.confidence = body.number("confidence", min: 0, max: 1)
            change.isActive = body.bool("is_active")
            try body.validate()
            let id = try LucidError.requireUUID(context.parameters.get("id") ?? "", field: "id", "Fact ID must be a valid UUID")
            guard let fact = store.changeFact(id, change) else { throw LucidError.notFound("Fact") }
            return Reply.json(LucidJSON.fact(fact))
        }

        // src/routes/facts.ts:295-340, factSearchSchema (fact.validation.ts:136-177): user_id and
        // category optional, is_active default true, limit 1-100 (10), min_similarity default 0.82,
        // min_confidence default 0.5 → {results:[{fact, similarity}], count, query}, best first.
        router.post("/v1/facts/search") { request, _ in
            var request = request
            var body = try await LucidBody.read(&request)
            let text = body.string("query", required: true, [LucidBody.minLength(1, "query cannot be empty"),
                                                             LucidBody.maxLength(1000, "query must be less than 1000 characters")])
            let userID = body.uuid("user_id", required: false, "user_id must be a valid UUID")
            let category = body.category("category")
            let active = body.bool("is_active") ?? true
            let limit = Int(body.number("limit", integer: true, min: 1, max: Double(LucidLimits.searchResults)) ?? 10)
            let minimum = body.number("min_similarity", min: 0, max: 1) ?? 0.82
            let minimumConfidence = body.number("min_confidence", min: 0, max: 1) ?? 0.5
            try body.validate()
            // Without a user_id every user's facts are searched (fact.service.ts:475-478).
            let facts = store.facts(ofUser: userID, active: active, category: category, limit: Int.max, offset: 0)
            let scored = facts.enumerated()
                .filter { $0.element.confidence >= minimumConfidence }
                .map { (index: $0.offset, fact: $0.element, similarity: LucidWords.similarity(text!, $0.element.content)) }
                .filter { $0.similarity >= minimum }
                .sorted { ($0.similarity, -$0.index) > ($1.similarity, -$1.index) }
                .prefix(limit)
            return Reply.json([
                "results": .array(scored.map { ["fact": LucidJSON.fact($0.fact, parsed: true), "similarity": .real($0.similarity)] }),
                "count": .integer(Int64(scored.count)), "query": .string(text!),
            ])
        }

        // src/routes/summary.ts:52-97, generateSummarySchema (summary.validation.ts:47-62): the
        // latest `message_count` messages (default 20, at most 100; summary.service.ts:51-57);
        // none: 404 {"error":"No messages found in conversation"}.
        router.post("/v1/summaries/generate") { request, _ in
            var request = request
            var body = try await LucidBody.read(&request)
            let conversationID = body.uuid("conversation_id", "conversation_id must be a valid UUID")
            let userID = body.uuid("user_id", "user_id must be a valid UUID")
            let count = body.number("message_count", integer: true, min: 1, max: Double(LucidLimits.summaryMessages),
                                    minMessage: "message_count must be at least 1", maxMessage: "message_count must be at most 100")
            try body.validate()
            let conversation = store.conversation(conversationID!)
            let messages = Array((conversation?.messages ?? []).suffix(Int(count ?? 20)))
            guard let conversation, !messages.isEmpty else {
                throw LucidError.error(.notFound, "No messages found in conversation")
            }
            // The summary's user_id references users (createSummary's INSERT): none is the route's
            // 500, its details the error as createSummary (summary.service.ts:183-186) and then
            // generateSummary (:123-129) wrapped it.
            guard store.user(userID!) != nil else {
                throw LucidError.error(.internalServerError, "Failed to generate summary", details:
                    "Failed to generate summary: Failed to create summary: insert or update on table \"summaries\" violates "
                        + "foreign key constraint \"summaries_user_id_fkey\"")
            }
            let text = LucidSummaryWriter.write(messages, title: conversation.title)
            let summary = LucidStore.Summary(
                id: LucidStore.newID(), conversationID: conversation.id, userID: userID!, userPerspective: text.userPerspective,
                modelPerspective: text.modelPerspective, overview: text.overview, messageCount: messages.count,
                createdAt: Timestamp.now())
            guard store.update(conversation.id, { $0.summaries.append(summary) }) != nil else {
                throw LucidError.error(.notFound, "No messages found in conversation")
            }
            return Reply.json(LucidJSON.summary(summary), status: .created)
        }

        // src/routes/conversations.ts:298-329 and src/routes/summary.ts:179-213: {summaries, count,
        // conversation_id, limit, offset}, newest first (summary.service.ts:222).
        router.get("/v1/conversations/:id/summaries") { request, context in
            try summaries(request, id: try LucidRoutes.conversationID(context))
        }
        router.get("/v1/summaries/conversations/:id") { request, context in
            try summaries(request, id: try LucidError.requireUUID(context.parameters.get("id") ?? "", field: "conversation_id", "Invalid uuid"))
        }
    }

    /// factCategories (fact.validation.ts:6-17).
    static let categories = ["personal", "preference", "goal", "relationship", "skill", "habit", "belief", "experience",
                             "health", "other"]

    static func enumMessage(_ received: String) -> String {
        "Invalid enum value. Expected " + categories.map { "'\($0)'" }.joined(separator: " | ") + ", received '\(received)'"
    }

    private func summaries(_ request: Request, id: String) throws -> Response {
        var query = LucidQuery(request)
        let limit = query.limit(default: 50, max: LucidLimits.listPage)
        let offset = query.offset()
        try query.validate()
        let newestFirst = Array((store.conversation(id)?.summaries ?? []).reversed())
        let page = LucidStore.slice(newestFirst, limit: limit, offset: offset)
        return Reply.json([
            "summaries": .array(page.map(LucidJSON.summary)), "count": .integer(Int64(page.count)),
            "conversation_id": .string(id), "limit": .integer(Int64(limit)), "offset": .integer(Int64(offset)),
        ])
    }
}

extension LucidMemoryRoutes {
    /// JavaScript's parseFloat: the longest leading decimal number after leading spaces, nil
    /// where JavaScript gives NaN.
    static func parseFloat(_ text: String) -> Double? {
        let numeric = text.drop(while: \.isWhitespace).prefix(while: { "0123456789+-.eE".contains($0) })
        var candidate = Substring(numeric)
        while !candidate.isEmpty {
            if let value = Double(candidate) { return value }
            candidate = candidate.dropLast()
        }
        return nil
    }
}

