import Hummingbird
import PSCore
import PSNet

/// The realtime service's Socket.IO endpoint, served here at `/socket.io/` on the same port
/// (PageSpace runs it as its own service, apps/realtime, port 3001 or `/socket.io` behind
/// the web host), and the socket-token route that feeds it.
struct RealtimeRoutes {
    let state: ServerState

    /// engine.io's `maxHttpBufferSize` default, told to clients as `maxPayload`.
    static let maxPayload = 1_000_000

    func register(on router: Router<ServerContext>) {
        let hub = state.realtime
        let sockets = RealtimeSockets(hub: hub, store: state.store)

        // apps/web/src/app/api/auth/socket-token/route.ts: requireAuth (a session only, else
        // a plain-text 401 "Unauthorized"); a ps_sock_ token valid for 5 minutes.
        router.get("/api/auth/socket-token") { request, _ in
            guard (try? state.authenticator.require(request, scope: .sessionOnly)) != nil else {
                return Reply.text("Unauthorized", status: .unauthorized)
            }
            let issued = hub.issueSocketToken()
            return Reply.json(
                ["token": .string(issued.token), "expiresAt": .string(Timestamp.iso8601(issued.expiresAt))],
                headers: [.cacheControl: "no-store, no-cache, must-revalidate", .vary: "Cookie"])
        }

        // engine.io (socket.io 4, protocol 4) over HTTP long-polling, as apps/realtime/src/index.ts
        // serves it with socket.io's defaults. The twin offers no WebSocket upgrade.
        router.get("/socket.io") { request, context in
            if let refusal = try await Self.check(request, context, hub: hub) { return refusal }
            guard let sid = request.query("sid") else { return handshake(hub.open(), timing: hub.timing) }
            guard let session = hub.session(sid) else { return Self.engineError(1, "Session ID unknown") }
            switch await session.poll() {
            case .packets(let packets): return Self.text(SocketIOPacket.payload(packets))
            case .closed: return Self.text("1")
            case .dropped: try await Self.drop(context)
            case .overlap:
                hub.close(sid)  // "overlap from client"
                return Response(status: .badRequest)
            }
        }
        router.post("/socket.io") { request, context in
            if let refusal = try await Self.check(request, context, hub: hub) { return refusal }
            guard let sid = request.query("sid") else { return Self.engineError(2, "Bad handshake method") }
            guard let session = hub.session(sid) else { return Self.engineError(1, "Session ID unknown") }
            var request = request
            guard let body = try? await request.collectBody(upTo: Self.maxPayload) else {
                hub.close(sid)
                return Response(status: .contentTooLarge)
            }
            for packet in SocketIOPacket.packets(in: String(decoding: body.readableBytesView, as: UTF8.self)) {
                sockets.handle(packet, session: session)
            }
            return Response(
                status: .ok, headers: [.contentType: "text/html"], body: ResponseBody(byteBuffer: ByteBuffer(string: "ok")))
        }

        // For the tests: the sessions and their rooms; an outage of the realtime service.
        router.get("/_test/realtime") { _, _ in Reply.json(["sessions": hub.snapshot]) }
        router.post("/_test/realtime/outage") { _, _ in
            hub.setOutage(true)
            return Reply.json(["outage": true])
        }
        router.post("/_test/realtime/lose") { request, _ in
            var request = request
            guard let count = try await request.jsonBody()["events"]?.intValue, (1...1000).contains(count) else {
                throw Refusal.badRequest("give events (1-1000)")
            }
            hub.loseContentEvents(Int(count))
            return Reply.json(["losing": .integer(count)])
        }
        router.delete("/_test/realtime/outage") { _, _ in
            hub.setOutage(false)
            return Reply.json(["outage": false])
        }
    }

    /// engine.io's request checks, in its order; during the outage nothing answers at all.
    private static func check(_ request: Request, _ context: ServerContext, hub: RealtimeHub) async throws -> Response? {
        if hub.isOut { try await drop(context) }
        guard request.query("EIO") == "4" else { return engineError(5, "Unsupported protocol version") }
        guard request.query("transport") == "polling" else { return engineError(0, "Transport unknown") }
        return nil
    }

    /// Closes the connection without an answer, as an unreachable service would leave it.
    private static func drop(_ context: ServerContext) async throws -> Never {
        try? await context.channel.close()
        throw ConnectionDropped()
    }

    /// The open packet: the session id and the heartbeat the client must keep.
    private func handshake(_ session: EngineSession, timing: RealtimeHub.Timing) -> Response {
        let open: JSON = [
            "sid": .string(session.sid), "upgrades": [],
            "pingInterval": .integer(Self.milliseconds(timing.pingInterval)),
            "pingTimeout": .integer(Self.milliseconds(timing.pingTimeout)),
            "maxPayload": .integer(Int64(Self.maxPayload)),
        ]
        return Self.text("0" + open.serialized())
    }

    private static func text(_ payload: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/plain; charset=UTF-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: payload)))
    }

    /// engine.io's error answer: 400 `{"code":N,"message":"…"}`.
    private static func engineError(_ code: Int64, _ message: String) -> Response {
        Reply.json(["code": .integer(code), "message": .string(message)], status: .badRequest)
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
