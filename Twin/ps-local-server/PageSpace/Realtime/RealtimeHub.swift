import PSCore
import PSNet
import Synchronization

/// The realtime service's state (apps/realtime/src/index.ts): Engine.IO sessions, the rooms
/// their sockets joined, the short-lived socket tokens, and the test outage.
final class RealtimeHub: Sendable {
    /// engine.io's defaults (`pingInterval` 25 s, `pingTimeout` 20 s) unless the server was
    /// started with others.
    struct Timing: Sendable {
        var pingInterval: Duration = .seconds(25)
        var pingTimeout: Duration = .seconds(20)
    }

    /// `SOCKET_TOKEN_TTL_MS` of apps/web/src/app/api/auth/socket-token/route.ts.
    static let socketTokenLifetime: Int64 = 5 * 60 * Timestamp.second

    private struct State {
        var sessions: [String: EngineSession] = [:]
        /// Room name → the engine sessions whose socket is in it.
        var rooms: [String: Set<String>] = [:]
        /// ps_sock_ token → when it expires (ms).
        var socketTokens: [String: Int64] = [:]
        var outage = false
        /// Content events still to lose (a broadcast that never arrived).
        var contentEventsToLose = 0
    }

    let timing: Timing
    private let state = Mutex(State())

    init(timing: Timing) { self.timing = timing }

    // MARK: Sessions

    /// A new session, with engine.io's heartbeat: a ping every `pingInterval`, and the session
    /// closed ("ping timeout") when no pong came within `pingTimeout`.
    func open() -> EngineSession {
        let session = EngineSession(sid: Identifiers.base64URL(Identifiers.randomBytes(15)))
        state.withLock { $0.sessions[session.sid] = session }
        let timing = self.timing
        Task { [weak self] in
            while !session.isClosed {
                try? await Task.sleep(for: timing.pingInterval)
                guard !session.isClosed else { return }
                session.ping()
                let deadline = ContinuousClock.now + timing.pingTimeout
                while !session.pingAnswered, !session.isClosed, ContinuousClock.now < deadline {
                    try? await Task.sleep(for: .milliseconds(20))
                }
                if !session.pingAnswered { self?.close(session.sid) }
            }
        }
        return session
    }

    func session(_ sid: String) -> EngineSession? { state.withLock { $0.sessions[sid] } }

    /// Ends a session and takes its socket out of every room.
    func close(_ sid: String, cut: Bool = false) {
        let session = state.withLock { state -> EngineSession? in
            leaveAll(sid: sid, in: &state)
            return state.sessions.removeValue(forKey: sid)
        }
        session?.close(cut: cut)
    }

    // MARK: Rooms

    func join(_ room: String, sid: String) {
        state.withLock { _ = $0.rooms[room, default: []].insert(sid) }
    }

    func leave(_ room: String, sid: String) {
        state.withLock { leave(room, sid: sid, in: &$0) }
    }

    func leaveAll(sid: String) {
        state.withLock { leaveAll(sid: sid, in: &$0) }
    }

    private func leaveAll(sid: String, in state: inout State) {
        for room in Array(state.rooms.keys) { leave(room, sid: sid, in: &state) }
    }

    private func leave(_ room: String, sid: String, in state: inout State) {
        state.rooms[room]?.remove(sid)
        if state.rooms[room]?.isEmpty == true { state.rooms[room] = nil }
    }

    func hasMembers(_ room: String) -> Bool {
        state.withLock { $0.rooms[room]?.isEmpty == false }
    }

    /// `io.to(room).emit(event, payload)`: one `42[event, payload]` packet to each socket in
    /// the room, queued in the order emits happen.
    func emit(_ event: String, _ payload: JSON, to room: String) {
        state.withLock { state in
            guard let members = state.rooms[room], !members.isEmpty else { return }
            if state.contentEventsToLose > 0, room.hasPrefix("conv:") {
                state.contentEventsToLose -= 1
                return
            }
            let packet = SocketIOPacket.event(event, payload)
            for sid in members { state.sessions[sid]?.send(packet) }
        }
    }

    /// For the tests: each session's socket and rooms.
    var snapshot: JSON {
        state.withLock { state in
            .array(state.sessions.values.sorted { $0.sid < $1.sid }.map { session in
                let rooms = state.rooms.filter { $0.value.contains(session.sid) }.keys.sorted()
                return [
                    "sid": .string(session.sid), "connected": .bool(session.socketID != nil),
                    "rooms": .array(rooms.map(JSON.string)),
                ]
            })
        }
    }

    // MARK: Socket tokens

    func issueSocketToken() -> (token: String, expiresAt: Int64) {
        let token = "ps_sock_" + Identifiers.base64URL(Identifiers.randomBytes(32))
        let expiresAt = Timestamp.now() + Self.socketTokenLifetime
        state.withLock { state in
            state.socketTokens = state.socketTokens.filter { $0.value > Timestamp.now() }
            state.socketTokens[token] = expiresAt
        }
        return (token, expiresAt)
    }

    func acceptsSocketToken(_ token: String) -> Bool {
        state.withLock { ($0.socketTokens[token] ?? 0) > Timestamp.now() }
    }

    // MARK: The test outage

    /// While on, the realtime service is unreachable: every session is cut (a waiting poll
    /// gets no answer) and every request is closed unanswered.
    func setOutage(_ on: Bool) {
        let cut = state.withLock { state -> [String] in
            state.outage = on
            return on ? Array(state.sessions.keys) : []
        }
        for sid in cut { close(sid, cut: true) }
    }

    var isOut: Bool { state.withLock { $0.outage } }

    /// The next `count` content events are lost on their way (broadcasts are best-effort).
    func loseContentEvents(_ count: Int) {
        state.withLock { $0.contentEventsToLose = count }
    }
}
