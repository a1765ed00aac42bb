import PSCore

/// Why a realtime connection ended in a way that a new one may fix (the network, a restart
/// of the service, a session it forgot): the follower reconnects.
public struct RealtimeConnectionLost: Error, Sendable {
    public let reason: String
}

/// A Socket.IO client over Engine.IO v4 HTTP long-polling, on libcurl: one session, the main
/// namespace, events in and out. Each poll is one GET that the server holds until it has
/// packets (at the latest its ping, every `pingInterval`); pings are answered at once.
public final class RealtimeConnection {
    private var http: HTTPClient
    private let options: HTTPOptions
    private let endpoint: String
    private var sid: String?
    /// The heartbeat the server announced, in seconds.
    public private(set) var pingInterval = 25.0
    public private(set) var pingTimeout = 20.0

    /// `endpoint` is the Engine.IO path (`https://host/socket.io/`). A poll that hears
    /// nothing for longer than the heartbeat allows is a lost connection.
    public init(endpoint: String, options: HTTPOptions) {
        var options = options
        options.retry.maxRetries = 0
        options.maxResponseBytes = 16 * 1024 * 1024
        self.options = options
        http = HTTPClient(options: options)
        self.endpoint = endpoint
    }

    /// Opens a session and connects to the main namespace with `auth.token`. A token the
    /// server refuses throws ToolError(.authenticationNeeded) with its words.
    public func open(token: String) throws {
        sid = nil
        let open = try exchange(HTTPRequest(method: "GET", url: url()))
        guard let first = open.first, first.first == "0",
              let handshake = try? JSON.parse(bytes: Array(first.dropFirst().utf8)),
              let sid = handshake["sid"]?.stringValue, !sid.isEmpty
        else { throw RealtimeConnectionLost(reason: "the server did not open an Engine.IO session") }
        self.sid = sid
        // Taken within sane bounds: a server's 1e300 would otherwise overflow the timeout.
        if let interval = handshake["pingInterval"]?.doubleValue { pingInterval = Self.heartbeat(interval) }
        if let timeout = handshake["pingTimeout"]?.doubleValue { pingTimeout = Self.heartbeat(timeout) }
        // A poll waits for the server's next ping at the longest: silence past the heartbeat
        // is a connection that died without saying so.
        var polling = options
        polling.idleTimeout = Int((pingInterval + pingTimeout).rounded(.up)) + 5
        http = HTTPClient(options: polling)
        try post([SocketIOPacket.connect(auth: ["token": .string(token)])])
        while true {
            for packet in try pollPackets() {
                guard packet.first == "4", let decoded = SocketIOPacket.decode(String(packet.dropFirst())) else { continue }
                if decoded.type == "0" { return }
                if decoded.type == "4" {
                    let words = decoded.data?["message"]?.stringValue ?? "refused"
                    throw ToolError(.authenticationNeeded,
                        "the realtime service refused the connection: \(TerminalSafeText.sanitize(words))")
                }
            }
        }
    }

    /// A heartbeat announced in milliseconds, as seconds between 0.1 s and an hour.
    static func heartbeat(_ milliseconds: Double) -> Double {
        guard milliseconds.isFinite else { return 3600 }
        return min(3600, max(0.1, milliseconds / 1000))
    }

    /// Sends an event on the main namespace.
    public func emit(_ event: String, _ payload: JSON) throws {
        try post([SocketIOPacket.event(event, payload)])
    }

    /// Waits for the next packets and returns the events among them, in order.
    public func poll() throws -> [(name: String, payload: JSON)] {
        var events: [(name: String, payload: JSON)] = []
        for packet in try pollPackets() {
            guard packet.first == "4", let decoded = SocketIOPacket.decode(String(packet.dropFirst())) else { continue }
            if decoded.type == "1" { throw RealtimeConnectionLost(reason: "the server disconnected the socket") }
            if let event = decoded.event { events.append(event) }
        }
        return events
    }

    /// Says goodbye (best effort): the server then forgets the session at once.
    public func close() {
        guard sid != nil else { return }
        try? post(["1"])
        sid = nil
    }

    /// One GET: the packets it carried, pings answered, a close packet a lost connection.
    private func pollPackets() throws -> [String] {
        guard sid != nil else { throw RealtimeConnectionLost(reason: "no session") }
        let packets = try exchange(HTTPRequest(method: "GET", url: url()))
        var rest: [String] = []
        for packet in packets {
            switch packet.first {
            case "2": try post(["3"])
            case "1": throw RealtimeConnectionLost(reason: "the server closed the session")
            case "6": break
            default: rest.append(packet)
            }
        }
        return rest
    }

    private func post(_ packets: [String]) throws {
        var request = HTTPRequest(method: "POST", url: url(), body: Array(SocketIOPacket.payload(packets).utf8))
        request.headers.append(("Content-Type", "text/plain;charset=UTF-8"))
        _ = try exchange(request)
    }

    /// Sends a request; a network failure or an Engine.IO refusal is a lost connection.
    private func exchange(_ request: HTTPRequest) throws -> [String] {
        let response: HTTPResponse
        do {
            response = try http.send(request)
        } catch TransferFailure.interrupted {
            throw ToolError(.interrupted, "interrupted")
        } catch let failure as TransferFailure {
            throw RealtimeConnectionLost(reason: APIErrors.toolError(failure, request: request).message)
        }
        let text = String(decoding: response.body, as: UTF8.self)
        guard response.head.isSuccess else {
            let message = (try? JSON.parse(bytes: response.body))?["message"]?.stringValue ?? "status \(response.status)"
            throw RealtimeConnectionLost(reason: "\(request.method) \(URLText.path(of: request.url)): \(TerminalSafeText.sanitize(message))")
        }
        return SocketIOPacket.packets(in: text)
    }

    private func url() -> String {
        let separator = endpoint.contains("?") ? "&" : "?"
        var url = endpoint + separator + "EIO=4&transport=polling"
        if let sid { url += "&sid=" + URLText.encodeComponent(sid) }
        return url
    }
}
