import Foundation
import Testing
import TestSupport

/// An MCP key scoped to one drive, on the current PageSpace's page routes: every route that
/// takes a page or a drive checks the key's drives before anything else of its own
/// (checkMCPPageScope and checkMCPDriveScope, apps/web/src/lib/auth/index.ts:785-856). The twin
/// seeds a second drive (driveteam, with the agent page_agent_team) that a key for drivedemo
/// does not reach.
@Suite struct PageDriveScopeTests {
    static let otherAgent = "page_agent_team"
    static let refusal = "This token does not have access to this drive"

    /// A sandbox logged in with a key the device flow granted for drivedemo only.
    static func scopedSandbox(_ server: LocalServer) throws -> NetworkSandbox {
        let sandbox = try NetworkSandbox()
        let login = try AuthCommandTests.deviceLogin(
            server, sandbox, #"{"outcome":"approve","interval":0}"#, ["--drive", "drivedemo"])
        #expect(login.status == 0, "\(login.stderrText)")
        return sandbox
    }

    /// The routes answer the real 403 (or 404 for a page that does not exist), in the real order.
    @Test func theRoutesRefuseAScopedKeyThePagesOfAnotherDrive() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let key = try DriveScopedKeyTests.scopedKey(server, drive: "drivedemo")
        let scoped = ["Authorization": "Bearer \(key)"]
        for path in [
            "/api/ai/chat/messages?pageId=\(Self.otherAgent)", "/api/ai/page-agents/\(Self.otherAgent)/conversations",
            "/api/ai/page-agents/\(Self.otherAgent)/conversations/demoagentconversation/messages",
            "/api/pages/\(Self.otherAgent)/agent-config", "/api/drives/driveteam/agents", "/api/drives/driveteam/pages",
        ] {
            let refused = try server.request("GET", path, headers: scoped)
            #expect(refused.status == 403, "\(path): \(refused.text)")
            #expect(try refused.jsonObject()["error"] as? String == Self.refusal, "\(path)")
        }
        let consult = try server.request(
            "POST", "/api/ai/page-agents/consult", headers: scoped, body: #"{"agentId":"\#(Self.otherAgent)","question":"Hi?"}"#)
        #expect(consult.status == 403)
        let create = try server.request(
            "POST", "/api/pages", headers: scoped, body: #"{"title":"Elsewhere","type":"DOCUMENT","driveId":"driveteam"}"#)
        #expect(create.status == 403)
        #expect(try create.jsonObject()["error"] as? String == Self.refusal)
        // A page that does not exist is looked up for a scoped key: 404 (index.ts:838-845).
        let missing = try server.request("GET", "/api/ai/chat/messages?pageId=no_such_page", headers: scoped)
        #expect(missing.status == 404)
        #expect(try missing.jsonObject()["error"] as? String == "Page not found")
        // The key's own drive, and the unscoped key on the other drive, get in.
        #expect(try server.request("GET", "/api/ai/chat/messages?pageId=page_agent_demo", headers: scoped).status == 200)
        let unscoped = ["Authorization": "Bearer \(LocalServer.mcpKey)"]
        #expect(try server.request("GET", "/api/ai/chat/messages?pageId=\(Self.otherAgent)", headers: unscoped).status == 200)
        let drives = try server.request("GET", "/api/drives", headers: unscoped).json() as? [[String: Any]]
        #expect(drives?.map { $0["id"] as? String } == ["drivedemo", "driveteam"])
    }

    /// The commands that take `--page` say that the page is outside the key's drives and what
    /// to do, with exit 5; the same page answers the unscoped key.
    @Test func pageCommandsSayThePageIsOutsideTheKeysDrives() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.scopedSandbox(server)
        let send = try sandbox.shell("ps-send --page \(Self.otherAgent) 'hello' | ps-sse")
        #expect(send.status == 5, "\(send.stderrText)")
        #expect(send.stderrText.hasPrefix(
            "ps-send: outside this key's drives: \(Self.refusal) (POST /api/ai/chat); a drive-scoped MCP key reaches only"),
                "\(send.stderrText)")
        #expect(send.stderrText.contains("ps-auth login --device --drive ID"))
        let history = try sandbox.run("ps-history", ["--page", Self.otherAgent])
        #expect(history.status == 5, "\(history.stderrText)")
        #expect(history.stderrText.hasPrefix("ps-history: outside this key's drives: \(Self.refusal)"), "\(history.stderrText)")
        #expect(history.stdoutText.isEmpty)
        // Nothing was stored on the other drive's agent.
        let stored = try server.request(
            "GET", "/api/ai/chat/messages?pageId=\(Self.otherAgent)", headers: ["Authorization": "Bearer \(LocalServer.mcpKey)"])
        #expect((try stored.json() as? [Any])?.isEmpty == true)

        let own = try sandbox.shell("ps-send --page page_agent_demo 'hello' | ps-sse | ps-parts --final")
        #expect(own.status == 0, "\(own.stderrText)")
        let unscoped = try NetworkSandbox(server: server, token: LocalServer.mcpKey)
        let other = try unscoped.shell("ps-send --page \(Self.otherAgent) 'hello' | ps-sse | ps-parts --final")
        #expect(other.status == 0, "\(other.stderrText)")
        #expect(try unscoped.run("ps-history", ["--page", Self.otherAgent]).status == 0)
    }

    /// The real server answers a page that does not exist as one the user may not view
    /// (page-chat-turn.ts:485-493): exit 5, one line that says so and where to look.
    @Test func aPageThatIsNotThereIsForbiddenAndTheLineSaysWhy() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let send = try sandbox.run("ps-send", ["--page", "no_such_page", "hello"])
        #expect(send.status == 5, "\(send.stderrText)")
        #expect(send.stderrText == "ps-send: forbidden: You do not have permission to view this AI chat (POST /api/ai/chat); "
            + "the page does not exist or is not shared with you: `ps-agents list` lists the agents you can reach\n")
        #expect(send.stdout.isEmpty)
    }
}
