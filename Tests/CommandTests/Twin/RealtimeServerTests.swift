import Foundation
import PSCore
import PSNet
import Testing
import TestSupport

/// The local server's realtime service, spoken to by hand: Engine.IO's handshake and errors,
/// Socket.IO's connection check and the conversation room, as apps/realtime serves them.
@Suite struct RealtimeServerTests {
    static let polling = "/socket.io/?EIO=4&transport=polling"

    /// Opens an Engine.IO session; its sid.
    static func handshake(_ server: LocalServer, pingInterval: Int = 25000, pingTimeout: Int = 20000) throws -> String {
        let open = try server.request("GET", polling)
        #expect(open.status == 200)
        #expect(open.text.hasPrefix("0{"))
        let body = try JSONSerialization.jsonObject(with: Data(open.text.dropFirst().utf8)) as? [String: Any]
        #expect(body?["pingInterval"] as? Int == pingInterval)
        #expect(body?["pingTimeout"] as? Int == pingTimeout)
        #expect(body?["maxPayload"] as? Int == 1_000_000)
        return try #require(body?["sid"] as? String)
    }

    static func post(_ server: LocalServer, _ sid: String, _ packets: String) throws {
        let reply = try server.request("POST", polling + "&sid=" + sid, headers: ["Content-Type": "text/plain"], body: packets)
        #expect(reply.status == 200)
        #expect(reply.text == "ok")
    }

    static func poll(_ server: LocalServer, _ sid: String) throws -> String {
        try server.request("GET", polling + "&sid=" + sid, timeout: 30).text
    }

    static func socketToken(_ server: LocalServer) throws -> String {
        let reply = try server.request("GET", "/api/auth/socket-token", headers: ["Authorization": "Bearer " + LocalServer.sessionToken])
        #expect(reply.status == 200)
        return try #require(try reply.jsonObject()["token"] as? String)
    }

    @Test func engineIORefusesWhatItDoesNotSpeak() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let cases: [(String, String, String)] = [
            ("GET", "/socket.io/?EIO=3&transport=polling", #"{"code":5,"message":"Unsupported protocol version"}"#),
            ("GET", "/socket.io/?EIO=4&transport=websocket", #"{"code":0,"message":"Transport unknown"}"#),
            ("GET", Self.polling + "&sid=nosuchsession", #"{"code":1,"message":"Session ID unknown"}"#),
            ("POST", Self.polling, #"{"code":2,"message":"Bad handshake method"}"#),
        ]
        for (method, path, body) in cases {
            let reply = try server.request(method, path, body: method == "POST" ? "40" : nil)
            #expect(reply.status == 400, "\(path)")
            #expect(reply.text == body, "\(path)")
        }
    }

    @Test func theConnectionWantsASocketOrSessionToken() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let refusals: [(String, String)] = [
            ("40", "Authentication error: No token provided."),
            (#"40{"token":"ps_sock_forged"}"#, "Authentication error: Invalid or expired socket token."),
            (#"40{"token":"ps_sess_other"}"#, "Authentication error: Invalid or expired session."),
            (#"40{"token":"mcp_demo-mcp-key"}"#, "Authentication error: Invalid token format."),
        ]
        for (packet, message) in refusals {
            let sid = try Self.handshake(server)
            try Self.post(server, sid, packet)
            #expect(try Self.poll(server, sid) == #"44{"message":"\#(message)"}"#)
        }
        // The socket-token route wants a session: anything else is a plain-text 401.
        let mcp = try server.request("GET", "/api/auth/socket-token", headers: ["Authorization": "Bearer " + LocalServer.mcpKey])
        #expect(mcp.status == 401)
        #expect(mcp.text == "Unauthorized")
        for token in [try Self.socketToken(server), LocalServer.sessionToken] {
            let sid = try Self.handshake(server)
            try Self.post(server, sid, #"40{"token":"\#(token)"}"#)
            #expect(try Self.poll(server, sid).hasPrefix(#"40{"sid":""#))
        }
    }

    @Test func joiningTheRoomBringsItsEvents() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sid = try Self.handshake(server)
        try Self.post(server, sid, #"40{"token":"\#(try Self.socketToken(server))"}"#)
        _ = try Self.poll(server, sid)
        // A malformed id is told; an unknown one is refused quietly; a known one joins.
        try Self.post(server, sid, "42[\"join_conversation\",\"conv_1\"]\u{1E}42[\"join_conversation\",42]")
        #expect(try Self.poll(server, sid) == [
            #"42["validation_error",{"event":"join_conversation","error":"Conversation ID must be a valid ID"}]"#,
            #"42["validation_error",{"event":"join_conversation","error":"Conversation ID must be a string"}]"#,
        ].joined(separator: "\u{1E}"))
        try Self.post(server, sid, #"42["join_conversation","nosuchconversation"]"#)
        try Self.post(server, sid, #"42["join_conversation","\#(LocalServer.globalConversationID)"]"#)
        let rooms = try server.request("GET", "/_test/realtime").text
        #expect(rooms.contains("conv:\(LocalServer.globalConversationID)"))
        #expect(!rooms.contains("conv:nosuchconversation"))

        let added = try server.request(
            "POST", "/_test/messages", body: #"{"conversationId":"\#(LocalServer.globalConversationID)","count":1}"#)
        let id = try #require((try added.jsonObject()["ids"] as? [String])?.first)
        let events = SocketIOPacket.packets(in: try Self.poll(server, sid))
        try #require(events.count == 2)
        #expect(events[0].hasPrefix(#"42["conversation:message_created",{"conversationId":"\#(LocalServer.globalConversationID)","rev":"#))
        #expect(events[0].contains(#""message":{"id":"\#(id)","role":"user""#))
        #expect(events[0].contains(#""status":"complete""#))
        #expect(events[1].hasPrefix(#"42["conversation:updated","#))
        #expect(events[1].contains(#""changes":{"lastMessageAt":"#))
    }

    @Test func aSilentClientIsClosedAfterThePingTimeout() throws {
        let server = try LocalServer.start(extraArguments: ["--ping-interval-ms", "100", "--ping-timeout-ms", "100"])
        defer { server.stop() }
        let sid = try Self.handshake(server, pingInterval: 100, pingTimeout: 100)
        #expect(try Self.poll(server, sid) == "2")  // the ping, never answered
        usleep(400_000)
        #expect(try server.request("GET", Self.polling + "&sid=" + sid).text == #"{"code":1,"message":"Session ID unknown"}"#)
    }
}
