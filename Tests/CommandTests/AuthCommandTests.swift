import Foundation
import Testing
import TestSupport

/// Credentials as today's server treats them: which kind of token reaches which route.
@Suite(.serialized) struct AuthCommandTests {
    @Test func anMCPKeyDoesWhatItCanAndIsRefusedClearlyWhereItCannot() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(extra: [
            "PAGESPACE_TOKEN": LocalServer.mcpKey, "PAGESPACE_API_URL": server.baseURL, "PAGESPACE_API_KIND": "pagespace",
        ])
        let status = try sandbox.run("ps-auth", ["status"])
        #expect(status.status == 0, "\(status.stdoutText)\(status.stderrText)")
        #expect(status.stdoutText.contains("reaches: Page AI agents and their history\n"))
        #expect(status.stdoutText.contains("drives: ") && status.stdoutText.contains("drive_demo"))
        #expect(status.stdoutText.contains("works: yes"))

        let agent = try sandbox.run("ps-send", ["--page", "page_agent_demo", "--conversation", "conv_agent_demo", "hello agent"])
        #expect(agent.status == 0, "\(agent.stderrText)")
        let history = try sandbox.run("ps-history", ["--page", "page_agent_demo", "--conversation", "conv_agent_demo"])
        #expect(history.status == 0)
        #expect(try Records.parse(history.stdoutText).contains { Records.text(of: $0) == "hello agent" })
        let list = try sandbox.run("ps-history", ["--list", "--agent", "page_agent_demo"])
        #expect(Records.ids(try Records.parse(list.stdoutText)).contains("conv_agent_demo"), "\(list.stderrText)")

        // The Global assistant: exit 4, and the way out named.
        let global = try sandbox.run("ps-send", ["hello global"])
        #expect(global.status == 4)
        #expect(global.stderrText.contains("MCP tokens are not permitted"))
        #expect(global.stderrText.contains("ps-send --page") && global.stderrText.contains("session token"))
        #expect(!global.stderrText.contains(LocalServer.mcpKey))
    }

    @Test func anMCPKeyCanBeStoredWithLogin() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let login = try sandbox.run("ps-auth", ["login", "--with-token", "--server", server.baseURL], stdin: LocalServer.mcpKey + "\n")
        #expect(login.status == 0, "\(login.stderrText)")
        #expect(login.stderrText.contains("not the Global assistant"))
        #expect(try sandbox.run("ps-auth", ["status"]).stdoutText.contains("works: yes"))
        let wrong = try sandbox.run("ps-auth", ["login", "--with-token", "--server", server.baseURL], stdin: "mcp_not-a-key\n")
        #expect(wrong.status == 4)
    }

    @Test func theServerAppliesTheTokenTable() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let me = try server.request("GET", "/api/auth/me", headers: ["Authorization": "Bearer " + LocalServer.mcpKey])
        #expect(me.status == 401)
        #expect(try me.jsonObject()["error"] as? String == "MCP tokens are not permitted for this endpoint")
        let drives = try server.request("GET", "/api/drives", headers: ["Authorization": "Bearer " + LocalServer.mcpKey])
        #expect(drives.status == 200)
        let lower = try server.request("GET", "/api/auth/me", headers: ["Authorization": "bearer " + LocalServer.sessionToken])
        #expect(lower.status == 401)
        #expect(lower.text == "Authentication required")
        let oauth = try server.request("GET", "/api/ai/global/active", headers: ["Authorization": "Bearer ps_at_x"])
        #expect(try oauth.jsonObject()["error"] as? String == "OAuth tokens are not permitted for this endpoint")
        let garbage = try server.request("GET", "/api/auth/me", headers: ["Authorization": "Bearer xyz"])
        #expect(try garbage.jsonObject()["error"] as? String == "Invalid token format")
    }
}
