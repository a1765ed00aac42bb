import Foundation
import Testing
import TestSupport

/// A drive-scoped MCP key (what `ps-auth login --device --drive` gives) on PageSpace's
/// `/api/v1`: the real server lets it reach only the conversations whose context is one of its
/// drives (apps/web/src/app/api/v1/conversations/route.ts:75-86, [id]/route.ts:31-36, 75-80),
/// so the client makes each conversation in the key's drive (buildCreateConversationPayload's
/// `drive_id`, lib/ai/openai-api/v1-conversations.ts:84-94).
@Suite struct DriveScopedKeyTests {
    static let otherDrive = "driveelsewhere"

    /// A key for `drive`, granted by the device flow and read back from the sandbox's own store.
    static func scopedKey(_ server: LocalServer, drive: String) throws -> String {
        let device = try NetworkSandbox()
        let login = try AuthCommandTests.deviceLogin(server, device, #"{"outcome":"approve","interval":0}"#, ["--drive", drive])
        #expect(login.status == 0, "\(login.stderrText)")
        let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: device.credentialsPath))) as? [String: Any]
        let profiles = try #require(stored?["profiles"] as? [String: [String: Any]])
        return try #require(profiles.values.first?["token"] as? String)
    }

    static func loggedIn(_ server: LocalServer, key: String) throws -> NetworkSandbox {
        let sandbox = try NetworkSandbox()
        let login = try sandbox.run(
            "ps-auth", ["login", "--api", "openai", "--server", server.baseURL + "/api/v1", "--with-token", "--model",
                        PageSpaceOpenAIVariantTests.agentModel], stdin: key + "\n")
        #expect(login.status == 0, "\(login.stderrText)")
        return sandbox
    }

    /// The issue's user: the second send and the read-back failed with 403, the list was empty.
    @Test func aScopedKeyKeepsTalkingToItsOwnConversation() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.loggedIn(server, key: try Self.scopedKey(server, drive: "drivedemo"))

        let first = try sandbox.shell("ps-send --new-conversation --print-ids 'First question' | ps-sse | ps-parts --final")
        #expect(first.status == 0, "\(first.stderrText)")
        let id = try #require(Records.value("conversation", in: first.stderrText))
        let second = try sandbox.shell("ps-send 'Second question' | ps-sse | ps-parts --final")
        #expect(second.status == 0, "\(second.stderrText)")

        let created = try PageSpaceOpenAIVariantTests.sends(server, path: "/api/v1/conversations")
        #expect(created.map { $0["drive_id"] as? String } == ["drivedemo"])
        let list = try sandbox.run("ps-history", ["--list"])
        #expect(list.status == 0, "\(list.stderrText)")
        #expect(try Records.parse(list.stdoutText).map { $0["id"] as? String } == [id])
        let export = try sandbox.run("ps-history", [])
        #expect(export.status == 0, "\(export.stderrText)")
        #expect(try Records.parse(export.stdoutText).map { $0["role"] as? String } == ["user", "assistant", "user", "assistant"])
        #expect(try sandbox.run("ps-history", ["--delete", id]).status == 0)
    }

    /// The server's side: a scoped key's list is filtered, another drive or none is a 403 with
    /// the real messages, and the client says what to do (exit 5).
    @Test func aConversationOutsideTheKeysDrivesIsForbidden() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let key = try Self.scopedKey(server, drive: "drivedemo")
        let scoped = ["Authorization": "Bearer \(key)"]
        // Made with the unscoped seed key, with no drive (what ps-send used to make).
        let made = try server.request("POST", "/api/v1/conversations",
                                      headers: ["Authorization": "Bearer \(LocalServer.mcpKey)"], body: #"{"title":"no drive"}"#)
        #expect(made.status == 201)
        let loose = try #require(try made.jsonObject()["id"] as? String)

        let read = try server.request("GET", "/api/v1/conversations/\(loose)", headers: scoped)
        #expect(read.status == 403)
        #expect(try read.jsonObject()["error"] as? String == "Conversation not accessible with this token")
        let delete = try server.request("DELETE", "/api/v1/conversations/\(loose)", headers: scoped)
        #expect(delete.status == 403)
        let list = try server.request("GET", "/api/v1/conversations", headers: scoped)
        #expect((try list.jsonObject()["data"] as? [Any])?.isEmpty == true)
        let otherList = try server.request("GET", "/api/v1/conversations?drive_id=\(Self.otherDrive)", headers: scoped)
        #expect(otherList.status == 403)
        #expect(try otherList.jsonObject()["error"] as? String == "Drive not accessible with this token")
        let otherMake = try server.request("POST", "/api/v1/conversations", headers: scoped, body: #"{"drive_id":"\#(Self.otherDrive)"}"#)
        #expect(otherMake.status == 403)
        #expect(try otherMake.jsonObject()["error"] as? String == "MCP token does not have access to the specified drive")
        // The unscoped key still reaches it.
        #expect(try server.request("GET", "/api/v1/conversations/\(loose)", headers: ["Authorization": "Bearer \(LocalServer.mcpKey)"]).status == 200)

        let sandbox = try Self.loggedIn(server, key: key)
        let history = try sandbox.run("ps-history", ["--conversation", loose])
        #expect(history.status == 5)
        #expect(history.stderrText.hasPrefix("ps-history: conversation \(loose) is outside this key's drives"))
        #expect(history.stderrText.contains("--new-conversation"))
        let send = try sandbox.shell("ps-send --conversation \(loose) 'hello' | ps-sse")
        #expect(send.status == 5)
        #expect(send.stderrText.contains("is outside this key's drives"))
    }

    /// `ps-send --page`: the agent's drive is the one the key lists (the seeded agents live in
    /// drivedemo); a key for a drive it does not list makes a conversation with no drive.
    @Test func aScopedKeyListsOnlyItsDrives() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let other = try Self.scopedKey(server, drive: Self.otherDrive)
        let drives = try server.request("GET", "/api/drives", headers: ["Authorization": "Bearer \(other)"])
        #expect((try drives.json() as? [Any])?.isEmpty == true)
        let demo = try Self.scopedKey(server, drive: "drivedemo")
        let listed = try server.request("GET", "/api/drives", headers: ["Authorization": "Bearer \(demo)"])
        #expect((try listed.json() as? [[String: Any]])?.map { $0["id"] as? String } == ["drivedemo"])
    }
}
