import PSCore
import Synchronization

/// The refresh tokens of device grants with offline_access, and their rotation: refreshTokenGrant
/// (apps/web/src/lib/repositories/oauth-repository.ts:535-660) deciding by decideRefreshRotation
/// (packages/lib/src/auth/oauth/refresh-rotation.ts:79-111). Each token is good once. One
/// presented again within REFRESH_GRACE_WINDOW_MS (30 s) of its rotation is refused alone
/// (the route keeps no grace cache: grace_cache_miss); later, it is reuse and ends the whole
/// family, its grant and every token under it. The family is the grant (revoking the grant
/// ends its refresh tokens, revokeOAuthGrantFamily). Tokens outlive no process, so the 30-day
/// and 90-day expiries never come up here.
final class OAuthRefreshTokens: Sendable {
    static let graceWindow: Int64 = 30 * Timestamp.second

    private struct Entry {
        let grantID: String
        let scopes: [String]
        var rotatedAt: Int64?
    }

    enum Decision: Equatable {
        /// Rotate: the scopes the new pair carries (narrowed when a scope was asked for).
        case rotate(grantID: String, scopes: [String])
        /// invalid_grant; `reuseOf` names the family to end on reuse.
        case invalidGrant(reuseOf: String?)
        case invalidScope
    }

    private let entries = Mutex<[String: Entry]>([:])

    func issue(grantID: String, scopes: [String]) -> String {
        let token = Identifiers.random(prefix: "ps_rt_", bytes: 24)
        entries.withLock { $0[token] = Entry(grantID: grantID, scopes: scopes) }
        return token
    }

    /// One refresh of `token`, now; a rotated token is spent whatever the answer.
    func redeem(_ token: String, requestedScope: String?, grantActive: (String) -> Bool, now: Int64 = Timestamp.now()) -> Decision {
        entries.withLock { entries in
            guard var entry = entries[token] else { return .invalidGrant(reuseOf: nil) }
            if let rotatedAt = entry.rotatedAt {
                if now - rotatedAt < Self.graceWindow { return .invalidGrant(reuseOf: nil) }
                for (other, value) in entries where value.grantID == entry.grantID { entries[other]?.rotatedAt = value.rotatedAt ?? now }
                return .invalidGrant(reuseOf: entry.grantID)
            }
            guard grantActive(entry.grantID) else { return .invalidGrant(reuseOf: nil) }
            var scopes = entry.scopes
            if let requestedScope {  // oauth-repository.ts:605-613
                guard case .success(let requested) = ScopeList.parse(requestedScope),
                      case .success(let granted) = ScopeList.parse(entry.scopes.joined(separator: " ")),
                      requested.isSubset(of: granted)
                else { return .invalidScope }
                scopes = requested.formatted
            }
            entry.rotatedAt = now
            entries[token] = entry
            return .rotate(grantID: entry.grantID, scopes: scopes)
        }
    }
}
