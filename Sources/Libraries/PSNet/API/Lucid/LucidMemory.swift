import PSCore

/// What Lucid learns about its user (facts) and what it writes of a conversation (summaries).
extension LucidAdapter: FactsAPI, SummariesAPI {
    /// `GET /v1/facts/users/{user_id}/facts?limit&offset[&is_active=true]`: the route that
    /// works (src/routes/facts.ts:246 at 8cdb90b). The guide's `/v1/users/{user_id}/facts` is
    /// 404 there, and 400 at HEAD (718cfb9), where no route lists facts: said so.
    public func listFacts(includeInactive: Bool, _ body: (JSON) throws -> Void) throws {
        let path = "/v1/facts/users/\(URLText.encodeComponent(try userID()))/facts"
        do {
            try LucidPages.walk(client, path, key: "facts", pageSize: Self.pageSize,
                                query: [("is_active", includeInactive ? nil : "true")]) { try body(LucidRecords.fact($0)) }
        } catch let error as ToolError where error.status == .notFound {
            throw ToolError(.notFound, "this Lucid server has no working route that lists facts (\(error.message)); "
                + "ps-facts search still finds them")
        }
    }

    /// `POST /v1/facts/extract {user_id, conversation_id, limit?}` (201).
    public func extractFacts(conversationID: String, messageLimit: Int?) throws -> FactExtraction {
        var body = JSONObject()
        body["user_id"] = .string(try userID())
        body["conversation_id"] = .string(conversationID)
        body["limit"] = messageLimit.map { .integer(Int64($0)) }
        let answer = try client.post("/v1/facts/extract", body: .object(body))
        return FactExtraction(
            extracted: answer["extracted"]?.arrayValue ?? [], created: (answer["created"]?.arrayValue ?? []).map(LucidRecords.fact),
            message: answer["message"]?.stringValue)
    }

    /// `PATCH /v1/facts/{id} {is_active}`.
    public func setFact(_ id: String, active: Bool) throws -> JSON {
        guard LucidIdentity.isUUID(id) else {
            throw ToolError(.notFound, "there is no fact \(TerminalSafeText.quoted(id)): Lucid's fact ids are UUIDs")
        }
        return LucidRecords.fact(
            try client.json(client.request("PATCH", "/v1/facts/\(URLText.encodeComponent(id))", body: ["is_active": .bool(active)])))
    }

    /// `POST /v1/facts/search {query, user_id, limit?, min_similarity?}` → `{results:[{fact, similarity}]}`.
    public func searchFacts(_ query: String, minSimilarity: Double?, limit: Int?) throws -> [JSON] {
        var body = JSONObject()
        body["query"] = .string(query)
        body["user_id"] = .string(try userID())
        body["limit"] = limit.map { .integer(Int64($0)) }
        body["min_similarity"] = minSimilarity.map(JSON.real)
        let answer = try client.post("/v1/facts/search", body: .object(body))
        guard let results = answer["results"]?.arrayValue else {
            throw ToolError(.serverError, "POST /v1/facts/search: the server's answer has no results array")
        }
        return results
    }

    /// Lucid's lists say how many they hold, not how many there are: the messages are counted
    /// page by page (one request for a conversation of fewer than 100 messages).
    public func messageCount(conversationID: String) throws -> Int {
        var count = 0
        try LucidPages.walk(client, "/v1/conversations/\(URLText.encodeComponent(conversationID))/messages",
                            key: "messages", pageSize: Self.pageSize) { _ in count += 1 }
        return count
    }

    /// `POST /v1/summaries/generate {conversation_id, user_id, message_count?}` (201).
    public func generateSummary(conversationID: String, messageCount: Int?) throws -> JSON {
        var body = JSONObject()
        body["conversation_id"] = .string(conversationID)
        body["user_id"] = .string(try userID())
        body["message_count"] = messageCount.map { .integer(Int64($0)) }
        return try client.post("/v1/summaries/generate", body: .object(body))
    }

    /// `GET /v1/conversations/{id}/summaries?limit&offset`.
    public func listSummaries(conversationID: String, _ body: (JSON) throws -> Void) throws {
        try LucidPages.walk(client, "/v1/conversations/\(URLText.encodeComponent(conversationID))/summaries",
                            key: "summaries", pageSize: 50, body)
    }
}
