import PSCore

/// The send bodies both PageSpace APIs take: `{messages:[UIMessage], ...}`. Only the last
/// message counts: the server loads the history itself. Where the user is goes in the one
/// field the adapter names (`contextRef` on the current API, `locationContext`/`pageContext`
/// on the legacy one).
enum SendBody {
    typealias Field = (key: String, value: JSON)

    static func global(message: JSON, options: SendOptions, location: Field?) -> JSON {
        var body = JSONObject()
        body["messages"] = [message]
        body["selectedProvider"] = options.provider.map { .string($0) }
        body["selectedModel"] = options.model.map { .string($0) }
        if let location { body[location.key] = location.value }
        return .object(body)
    }

    static func agent(pageID: String, conversationID: String?, message: JSON, options: SendOptions, location: Field?) -> JSON {
        var body = JSONObject()
        body["messages"] = [message]
        body["chatId"] = .string(pageID)
        body["conversationId"] = conversationID.map { .string($0) }
        body["selectedProvider"] = options.provider.map { .string($0) }
        body["selectedModel"] = options.model.map { .string($0) }
        if let location { body[location.key] = location.value }
        return .object(body)
    }

    /// The current API: `contextRef {routeType, pageId?, driveId?}`, which the server
    /// resolves and permission-checks itself (apps/web/src/lib/ai/shared/buildContextRef.ts);
    /// `locationContext`/`pageContext` are deprecated there.
    static func contextRef(_ location: SendLocation?) -> Field? {
        guard let location else { return nil }
        var ref = JSONObject()
        switch location {
        case .page(let page, let drive):
            ref["routeType"] = "page"
            ref["pageId"] = .string(page)
            ref["driveId"] = drive.map { .string($0) }
        case .drive(let drive):
            ref["routeType"] = "drive"
            ref["driveId"] = .string(drive)
        }
        return ("contextRef", .object(ref))
    }

    /// The legacy API, Global assistant: `locationContext {currentDrive:{id}}`.
    static func locationContext(_ location: SendLocation?) -> Field? {
        let drive: String?
        switch location {
        case .page(_, let driveID): drive = driveID
        case .drive(let driveID): drive = driveID
        case nil: drive = nil
        }
        return drive.map { ("locationContext", ["currentDrive": ["id": .string($0)]]) }
    }

    /// The legacy API, Page AI: `pageContext {pageId, pageType, driveId?}`.
    static func pageContext(_ location: SendLocation?) -> Field? {
        guard case .page(let page, let drive) = location else { return nil }
        var context = JSONObject()
        context["pageId"] = .string(page)
        context["pageType"] = "AI_CHAT"
        context["driveId"] = drive.map { .string($0) }
        return ("pageContext", .object(context))
    }
}
