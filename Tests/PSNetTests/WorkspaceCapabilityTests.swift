import PSCore
import Testing
@testable import PSNet

/// Which workspace capabilities each API kind adopts, and the shapes the PageSpace calls send.
@Suite struct WorkspaceCapabilityTests {
    func adapter(_ kind: APIKind) -> APIAdapter {
        let session = Session(
            profileName: "default", paths: ConfigPaths(environment: ["HOME": "/nonexistent"]), config: ConfigFile(),
            server: "http://127.0.0.1:8080", serverSource: .builtIn, api: kind, apiSource: nil,
            credentials: Credentials(token: "tok"), credentialsSource: nil)
        return APIAdapters.make(kind, client: APIClient(session: session, http: HTTPClient()))
    }

    @Test func theCurrentAPIHasTheWholeWorkspaceAndTheLegacyOneItsAgents() throws {
        let current = adapter(.pagespace)
        #expect(current is AgentDirectory && current is AgentConfiguring && current is AgentCreating)
        #expect(current is AgentConsulting && current is KeyManagement && current is GrantManagement)
        #expect(current is ConversationRenaming && current is ConversationDeleting)
        let legacy = adapter(.pagespaceLegacy)
        // The late-2025 server had /api/drives/{id}/agents and agent-config, not this consult.
        #expect(legacy is AgentConfiguring && legacy is AgentDirectory)
        #expect(!(legacy is AgentConsulting) && !(legacy is KeyManagement))
        // The legacy server had /api/ai_conversations/{id} PATCH and DELETE.
        #expect(legacy is ConversationRenaming && legacy is ConversationDeleting)
        #expect(!(adapter(.openai) is AgentDirectory))
        do {
            _ = try Capabilities.require(legacy, KeyManagement.self, toDo: "manage MCP keys")
            Issue.record("the legacy API cannot manage keys")
        } catch let error as ToolError {
            #expect(error.status == .usage)
            #expect(error.message == "the pagespace-legacy API cannot manage MCP keys")
        }
    }

    @Test func aConfigurationChangeSendsOnlyWhatItSets() {
        #expect(AgentConfigChange().isEmpty)
        #expect(AgentConfigChange().body == .object(JSONObject()))
        let change = AgentConfigChange(systemPrompt: "Be brief.", enabledTools: [])
        #expect(change.body == ["systemPrompt": "Be brief.", "enabledTools": []])
        let model = AgentConfigChange(provider: "openai", model: "gpt-4o")
        #expect(model.body == ["aiProvider": "openai", "aiModel": "gpt-4o"])
    }

    @Test func anAgentConfigurationIsReadFromTheServersRecord() {
        let config = AgentConfig(record: [
            "pageId": "p", "enabledTools": ["read_page"],
            "availableTools": [["name": "read_page", "description": "Read"], ["name": "list_pages"], ["description": "no name"]],
        ])
        #expect(config.enabledTools == ["read_page"])
        #expect(config.availableTools.map(\.name) == ["read_page", "list_pages"])
        #expect(config.availableTools.map(\.description) == ["Read", ""])
    }
}
