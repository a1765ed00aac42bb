import PSCore
import Synchronization

/// Failures armed through `POST /_test/faults`, each good for `times` uses, then gone.
final class FaultBoard: Sendable {
    struct StatusFault: Sendable {
        let status: Int
        let retryAfter: Int64?
        let pathPrefix: String?
        /// Replaces the dialect's error body (e.g. the daily_cap_exceeded form of a 429).
        let body: JSON?
        var remaining: Int
    }

    /// Cut the next stream after `afterEvents` data events: the connection closes mid-stream,
    /// or, `clean`, the stream closes with `[DONE]` and no `finish`, as the current server
    /// closes a reply that was stopped, taken over by another tab or overflowed.
    struct DropFault: Sendable {
        let afterEvents: Int
        var clean = false
        /// Send the first half of the next event before closing (a cut inside an event).
        var midEvent = false
        var remaining: Int
    }

    /// Pause before every event of the next stream (or only its first `events`), sending
    /// keep-alive comments meanwhile.
    struct SlowFault: Sendable {
        let keepAliveMs: Int
        let pauseMs: Int
        var events: Int? = nil
        var remaining: Int
    }

    /// Close a history GET without an answer once `afterPages` pages were served.
    struct HistoryDropFault: Sendable {
        let afterPages: Int
        var pagesServed = 0
        var remaining: Int
    }

    /// How the next reply's generation behaves on the server side: `unstoppable`, it runs on
    /// an instance that does not act on an abort (POST /api/ai/abort then answers
    /// `unconfirmed` and the reply goes on); `frameLog` "kept", its durable frame log is not
    /// released when it ends (the terminal message write failed), "cut" the log stops after
    /// `afterFrames` frames (the writer gave up early) and is kept; `ring`, its memory ring
    /// holds only its last N frames (stream-channel.ts DEFAULT_MAX_MEMORY_FRAMES: 50,000).
    struct ReplyFault: Sendable {
        var unstoppable = false
        var frameLog: FrameLog? = nil
        var ringFrames: Int? = nil
        var remaining: Int

        enum FrameLog: Sendable, Equatable {
            case kept
            case cut(afterFrames: Int)
        }
    }

    private struct State {
        var replies: [ReplyFault] = []
        var statuses: [StatusFault] = []
        var drops: [DropFault] = []
        var slows: [SlowFault] = []
        var historyDrops: [HistoryDropFault] = []
    }

    static let statusesWithBodies: Set<Int> = [401, 402, 403, 404, 409, 429, 500, 502, 503, 504]

    private let state = Mutex(State())

    /// Arms what `spec` describes; throws a 400 Refusal naming what is wrong with it.
    func arm(_ spec: JSON) throws {
        guard spec.objectValue != nil else { throw Refusal.badRequest("fault must be a JSON object") }
        let times = try Self.integer(spec, "times", default: 1, minimum: 1)
        if let status = spec["status"] {
            guard let code = status.intValue, Self.statusesWithBodies.contains(Int(code)) else {
                throw Refusal.badRequest("status must be one of \(Self.statusesWithBodies.sorted())")
            }
            let retryAfter = try spec["retryAfter"].map { value -> Int64 in
                guard let seconds = value.intValue, seconds >= 0 else {
                    throw Refusal.badRequest("retryAfter must be a number of seconds")
                }
                return seconds
            }
            if let body = spec["body"], body.objectValue == nil {
                throw Refusal.badRequest("body must be a JSON object")
            }
            let fault = StatusFault(
                status: Int(code), retryAfter: retryAfter, pathPrefix: spec["path"]?.stringValue, body: spec["body"],
                remaining: times)
            state.withLock { $0.statuses.append(fault) }
        } else if spec["drop"]?.boolValue == true || spec["stop"]?.boolValue == true {
            let fault = DropFault(
                afterEvents: try Self.integer(spec, "afterEvents", default: 3, minimum: 0),
                clean: spec["stop"]?.boolValue == true, midEvent: spec["midEvent"]?.boolValue == true, remaining: times)
            state.withLock { $0.drops.append(fault) }
        } else if spec["slow"]?.boolValue == true {
            let fault = SlowFault(
                keepAliveMs: try Self.integer(spec, "keepAliveMs", default: 50, minimum: 1),
                pauseMs: try Self.integer(spec, "pauseMs", default: 300, minimum: 0),
                events: spec["events"] == nil ? nil : try Self.integer(spec, "events", default: 0, minimum: 1),
                remaining: times)
            state.withLock { $0.slows.append(fault) }
        } else if spec["unstoppable"] != nil || spec["frameLog"] != nil || spec["ring"] != nil {
            var fault = ReplyFault(unstoppable: spec["unstoppable"]?.boolValue == true, remaining: times)
            switch spec["frameLog"]?.stringValue {
            case nil: break
            case "kept": fault.frameLog = .kept
            case "cut": fault.frameLog = .cut(afterFrames: try Self.integer(spec, "afterFrames", default: 3, minimum: 0))
            default: throw Refusal.badRequest("frameLog must be \"kept\" or \"cut\"")
            }
            if spec["ring"] != nil { fault.ringFrames = try Self.integer(spec, "ring", default: 1, minimum: 1) }
            let armed = fault
            state.withLock { $0.replies.append(armed) }
        } else if spec["dropHistory"]?.boolValue == true {
            let fault = HistoryDropFault(
                afterPages: try Self.integer(spec, "afterPages", default: 1, minimum: 0), remaining: times)
            state.withLock { $0.historyDrops.append(fault) }
        } else {
            throw Refusal.badRequest("fault needs one of status, drop, stop, slow, unstoppable, frameLog, ring or dropHistory")
        }
    }

    func clear() { state.withLock { $0 = State() } }

    /// The status fault for a request to `path`, used up by this call.
    func takeStatus(path: String) -> StatusFault? {
        state.withLock { state in
            guard let index = state.statuses.firstIndex(where: { path.hasPrefix($0.pathPrefix ?? "") }) else { return nil }
            let fault = state.statuses[index]
            state.statuses[index].remaining -= 1
            if state.statuses[index].remaining == 0 { state.statuses.remove(at: index) }
            return fault
        }
    }

    func takeDrop() -> DropFault? {
        state.withLock { Self.takeFirst(&$0.drops, remaining: \.remaining) }
    }

    func takeReply() -> ReplyFault? {
        state.withLock { Self.takeFirst(&$0.replies, remaining: \.remaining) }
    }

    func takeSlow() -> SlowFault? {
        state.withLock { Self.takeFirst(&$0.slows, remaining: \.remaining) }
    }

    /// Called for every history page about to be served: true means drop this one.
    func historyPageShouldDrop() -> Bool {
        state.withLock { state in
            guard !state.historyDrops.isEmpty else { return false }
            if state.historyDrops[0].pagesServed < state.historyDrops[0].afterPages {
                state.historyDrops[0].pagesServed += 1
                return false
            }
            state.historyDrops[0].remaining -= 1
            if state.historyDrops[0].remaining == 0 { state.historyDrops.removeFirst() }
            return true
        }
    }

    private static func takeFirst<Fault>(_ faults: inout [Fault], remaining: WritableKeyPath<Fault, Int>) -> Fault? {
        guard let fault = faults.first else { return nil }
        faults[0][keyPath: remaining] -= 1
        if faults[0][keyPath: remaining] == 0 { faults.removeFirst() }
        return fault
    }

    private static func integer(_ spec: JSON, _ key: String, default value: Int, minimum: Int) throws -> Int {
        guard let json = spec[key] else { return value }
        guard let number = json.intValue, number >= minimum, number <= 1_000_000 else {
            throw Refusal.badRequest("\(key) must be a whole number of at least \(minimum)")
        }
        return Int(number)
    }
}
