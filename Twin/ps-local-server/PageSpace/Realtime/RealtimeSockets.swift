import PSCore
import PSNet

/// What the realtime service does with the packets a client posts (apps/realtime/src/index.ts):
/// heartbeat answers, the namespace connection with its token check (`io.use`), and the
/// conversation room events (`join_conversation`, `leave_conversation`).
struct RealtimeSockets {
    let hub: RealtimeHub
    let store: ConversationStore

    /// One Engine.IO packet from the client.
    func handle(_ packet: String, session: EngineSession) {
        switch packet.first {
        case "1": hub.close(session.sid)
        case "3": session.pong()
        case "4": socketIO(String(packet.dropFirst()), session: session)
        default: break  // "5" upgrade and "6" noop belong to a WebSocket upgrade this twin does not offer.
        }
    }

    private func socketIO(_ text: String, session: EngineSession) {
        guard let packet = SocketIOPacket.decode(text) else {
            hub.close(session.sid)  // socket.io closes the connection on a packet it cannot decode
            return
        }
        switch packet.type {
        case "0": connect(packet, session: session)
        case "1":
            hub.leaveAll(sid: session.sid)
            session.disconnectSocket()
        case "2":
            guard packet.namespace == "/", session.socketID != nil, let userID = session.userID,
                let (name, payload) = packet.event
            else { return }  // no socket on that namespace: socket.io drops the packet
            event(name, payload: payload, userID: userID, session: session)
        default: break
        }
    }

    /// The `io.use` middleware: the token in the handshake's `auth.token`, `ps_sock_` from
    /// /api/auth/socket-token or a `ps_sess_` session, with the middleware's own wording.
    private func connect(_ packet: SocketIOPacket.Decoded, session: EngineSession) {
        guard packet.namespace == "/" else {
            session.send(SocketIOPacket.connectError("Invalid namespace", namespace: packet.namespace))
            return
        }
        if let refusal = refusal(of: packet.data?["token"]) {
            session.send(SocketIOPacket.connectError(refusal))
            return
        }
        let socketID = Identifiers.base64URL(Identifiers.randomBytes(15))
        session.connectSocket(id: socketID, userID: SeedData.userID)
        // The personal rooms joined on connection; the directory events go to the sessions one.
        hub.join(ConversationEvents.userSessionsRoom(SeedData.userID), sid: session.sid)
        session.send(SocketIOPacket.connected(socketID: socketID))
    }

    private func refusal(of token: JSON?) -> String? {
        guard let token, token != .null, token != "" else { return "Authentication error: No token provided." }
        guard let text = token.stringValue else { return "Authentication error: Invalid token format." }
        if text.hasPrefix("ps_sock_") {
            return hub.acceptsSocketToken(text) ? nil : "Authentication error: Invalid or expired socket token."
        }
        if text.hasPrefix("ps_sess_") {
            return text == SeedData.sessionToken ? nil : "Authentication error: Invalid or expired session."
        }
        return "Authentication error: Invalid token format."
    }

    /// `join_conversation` / `leave_conversation`: the id is checked first (a bad one is told
    /// with `validation_error`); a join the user may not make is refused quietly, as the
    /// handler does ("a stale join attempt … is an expected client state").
    private func event(_ name: String, payload: JSON, userID: String, session: EngineSession) {
        guard name == "join_conversation" || name == "leave_conversation" else { return }
        let problem: String? = payload.stringValue == nil
            ? "Conversation ID must be a string"
            : Identifiers.isCuid(payload.stringValue!) ? nil : "Conversation ID must be a valid ID"
        if let problem {
            session.send(SocketIOPacket.event("validation_error", ["event": .string(name), "error": .string(problem)]))
            return
        }
        let id = payload.stringValue!
        let room = ConversationEvents.conversationRoom(id)
        if name == "leave_conversation" {
            hub.leave(room, sid: session.sid)
        } else if store.conversation(id) != nil {
            // canAccessConversation: the owner, or a member of a shared one's page; every
            // conversation here belongs to the one demo user.
            hub.join(room, sid: session.sid)
        }
    }
}
