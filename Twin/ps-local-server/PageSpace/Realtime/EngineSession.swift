import Synchronization

/// One Engine.IO v4 session over HTTP long-polling (socket.io's engine.io `Socket` with the
/// `Polling` transport): packets wait in an outbox until the client's next GET takes them all;
/// a GET that finds none waits for the first.
final class EngineSession: Sendable {
    /// What a poll gets.
    enum Poll: Sendable {
        case packets([String])
        /// A second GET while one is waiting: engine.io answers it 400 and closes the session.
        case overlap
        /// The session closed while the GET waited: engine.io sends the close packet `1`.
        case closed
        /// The session was cut (the test outage): the GET is closed without an answer.
        case dropped
    }

    private struct State {
        var outbox: [String] = []
        var waiter: CheckedContinuation<Poll, Never>?
        var closed = false
        var pingAnswered = true
        /// The Socket.IO socket on the main namespace, once connected.
        var socketID: String?
        var userID: String?
    }

    let sid: String
    private let state = Mutex(State())

    init(sid: String) { self.sid = sid }

    var isClosed: Bool { state.withLock { $0.closed } }
    var socketID: String? { state.withLock { $0.socketID } }
    var userID: String? { state.withLock { $0.userID } }

    /// Queues one packet, or hands it straight to a waiting GET. Order is kept: callers queue
    /// synchronously, in the order the events happen.
    func send(_ packet: String) {
        state.withLock { state in
            guard !state.closed else { return }
            if let waiter = state.waiter {
                state.waiter = nil
                waiter.resume(returning: .packets([packet]))
            } else {
                state.outbox.append(packet)
            }
        }
    }

    /// A GET: everything queued, or the first packet to come.
    func poll() async -> Poll {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                if state.closed {
                    continuation.resume(returning: .closed)
                } else if state.waiter != nil {
                    continuation.resume(returning: .overlap)
                } else if !state.outbox.isEmpty {
                    let packets = state.outbox
                    state.outbox = []
                    continuation.resume(returning: .packets(packets))
                } else {
                    state.waiter = continuation
                }
            }
        }
    }

    /// Ends the session; a waiting GET gets the close packet, or nothing at all when `cut`.
    func close(cut: Bool = false) {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            state.outbox = []
            state.waiter?.resume(returning: cut ? .dropped : .closed)
            state.waiter = nil
        }
    }

    /// Sends a ping and expects a pong before the next check.
    func ping() {
        state.withLock { $0.pingAnswered = false }
        send("2")
    }

    func pong() { state.withLock { $0.pingAnswered = true } }

    var pingAnswered: Bool { state.withLock { $0.pingAnswered } }

    func connectSocket(id: String, userID: String) {
        state.withLock {
            $0.socketID = id
            $0.userID = userID
        }
    }

    func disconnectSocket() {
        state.withLock { $0.socketID = nil }
    }
}
