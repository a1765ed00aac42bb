import PSCore
import Synchronization

/// The AI_CHAT page's agent configuration (`GET|PATCH /api/pages/{id}/agent-config`).
final class AgentDirectory: Sendable {
    struct Config: Sendable {
        var systemPrompt = "You are a careful research assistant for the Demo Drive. Cite the pages you read."
        var enabledTools = ["read_page", "list_pages"]
        var aiProvider = "pagespace"
        var aiModel = "glm-4.5-air"
    }

    private let configs = Mutex<[String: Config]>([SeedData.agentPageID: Config()])

    func config(_ pageID: String) -> Config? { configs.withLock { $0[pageID] } }

    /// Applies the fields present in `patch`; a field of the wrong type is a 400.
    func update(_ pageID: String, with patch: JSON) throws -> Config? {
        var config = configs.withLock { $0[pageID] }
        guard config != nil else { return nil }
        if let value = patch["systemPrompt"] {
            guard let text = value.stringValue else { throw Refusal.badRequest("systemPrompt must be a string") }
            config!.systemPrompt = text
        }
        if let value = patch["enabledTools"] {
            guard let names = value.arrayValue?.compactMap(\.stringValue), names.count == value.arrayValue?.count else {
                throw Refusal.badRequest("enabledTools must be an array of tool names")
            }
            config!.enabledTools = names
        }
        if let value = patch["aiProvider"] {
            guard let text = value.stringValue else { throw Refusal.badRequest("aiProvider must be a string") }
            config!.aiProvider = text
        }
        if let value = patch["aiModel"] {
            guard let text = value.stringValue else { throw Refusal.badRequest("aiModel must be a string") }
            config!.aiModel = text
        }
        let updated = config!
        configs.withLock { $0[pageID] = updated }
        return updated
    }

    func json(_ pageID: String, _ config: Config) -> JSON {
        [
            "pageId": .string(pageID), "systemPrompt": .string(config.systemPrompt),
            "enabledTools": .array(config.enabledTools.map(JSON.string)),
            "availableTools": .array(SeedData.availableTools.map { ["name": .string($0.0), "description": .string($0.1)] }),
            "aiProvider": .string(config.aiProvider), "aiModel": .string(config.aiModel),
        ]
    }
}
