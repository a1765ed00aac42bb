import Foundation
import Testing
import TestSupport

/// A lucid-dialect server and a sandbox logged in to it (`ps-auth login --api lucid`).
struct LucidWorld {
    let server: LocalServer
    let sandbox: NetworkSandbox

    static func start(extraArguments: [String] = []) throws -> LucidWorld {
        let server = try LocalServer.start(dialect: "lucid", extraArguments: ["--quiet"] + extraArguments)
        let sandbox = try NetworkSandbox(extra: ["PAGESPACE_API_URL": server.baseURL, "PAGESPACE_API_KIND": "lucid"])
        let login = try sandbox.run("ps-auth", ["login", "--user-name", "Ada", "--timezone", "Europe/Paris"])
        guard login.status == 0 else { throw LocalServerError("login failed: \(login.stderrText)") }
        return LucidWorld(server: server, sandbox: sandbox)
    }

    /// Sends `text` (to the current conversation unless `arguments` say otherwise); returns the
    /// conversation id --print-ids names.
    @discardableResult
    func send(_ text: String, _ arguments: [String] = []) throws -> String {
        let result = try sandbox.run("ps-send", ["--print-ids"] + arguments + [text])
        guard result.status == 0, let id = Records.value("conversation", in: result.stderrText) else {
            throw LocalServerError("ps-send failed (\(result.status)): \(result.stderrText)")
        }
        return id
    }

    /// `POST /_test/lucid/messages`: `count` more messages, `perTimestamp` sharing each created_at.
    func seed(_ conversationID: String, count: Int, perTimestamp: Int = 1) throws {
        let reply = try server.request(
            "POST", "/_test/lucid/messages",
            body: #"{"conversation_id":"\#(conversationID)","count":\#(count),"per_timestamp":\#(perTimestamp)}"#)
        guard reply.status == 200 else { throw LocalServerError("seeding failed: \(reply.status) \(reply.text)") }
    }

    func deleteMessage(_ id: String) throws {
        let reply = try server.request("DELETE", "/_test/lucid/messages/\(id)")
        guard reply.status == 200 else { throw LocalServerError("deleting \(id) failed: \(reply.status) \(reply.text)") }
    }

    /// The user id the login kept in the profile.
    func userID() throws -> String {
        let config = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sandbox.configPath))) as? [String: Any]
        let profile = ((config?["profiles"] as? [String: Any])?["default"] as? [String: Any])
        guard let id = (profile?["user"] as? [String: Any])?["id"] as? String else { throw LocalServerError("no user in the profile") }
        return id
    }

    /// The server's JSON answer to a GET.
    func get(_ path: String) throws -> [String: Any] {
        let reply = try server.request("GET", path)
        return try reply.jsonObject()
    }
}
