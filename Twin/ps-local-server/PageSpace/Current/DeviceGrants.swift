import PSCore
import Synchronization

/// The device authorization grants handed out, and how the "user" answers them: nobody
/// approves in a browser here, so a test arms the answer (`POST /_test/device`): approve,
/// deny or let expire after so many polls, ask to slow down on one poll, and the poll
/// interval the server announces.
final class DeviceGrants: Sendable {
    struct Script: Sendable {
        var outcome = "pending"
        var afterPolls = 0
        var slowDownAtPoll: Int?
        var interval = 5
    }

    struct Grant: Sendable {
        let scope: [String]
        var polls = 0
        var redeemed = false
    }

    private struct State {
        var script = Script()
        var grants: [String: Grant] = [:]
    }

    private let state = Mutex(State())

    func arm(_ spec: JSON) throws {
        var script = Script()
        if let outcome = spec["outcome"]?.stringValue {
            guard ["approve", "deny", "expire", "pending"].contains(outcome) else {
                throw Refusal.badRequest("outcome is approve, deny, expire or pending")
            }
            script.outcome = outcome
        }
        script.afterPolls = Int(spec["afterPolls"]?.intValue ?? 0)
        script.slowDownAtPoll = spec["slowDownAtPoll"]?.intValue.map { Int($0) }
        script.interval = Int(spec["interval"]?.intValue ?? 5)
        state.withLock { $0.script = script }
    }

    var interval: Int { state.withLock { $0.script.interval } }

    /// A device code as generateToken('ps_dc') makes one (device_authorization/route.ts:103;
    /// packages/lib/src/auth/token-utils.ts:80-89): the prefix and a cuid.
    func start(scope: [String]) -> String {
        let code = "ps_dc_" + Identifiers.cuid()
        state.withLock { $0.grants[code] = Grant(scope: scope) }
        return code
    }

    enum Answer { case pending, slowDown, denied, expired, approved(scope: [String]), invalid }

    /// One poll of the token endpoint for `code`.
    func poll(_ code: String) -> Answer {
        state.withLock { state in
            guard var grant = state.grants[code], !grant.redeemed else { return .invalid }
            grant.polls += 1
            defer { state.grants[code] = grant }
            let script = state.script
            if script.slowDownAtPoll == grant.polls { return .slowDown }
            guard grant.polls > script.afterPolls else { return .pending }
            switch script.outcome {
            case "approve":
                grant.redeemed = true
                return .approved(scope: grant.scope)
            case "deny": return .denied
            case "expire": return .expired
            default: return .pending
            }
        }
    }
}
