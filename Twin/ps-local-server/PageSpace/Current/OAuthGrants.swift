import Foundation
import PSCore
import Synchronization

/// The OAuth grants on the account (apps/web/src/app/api/account/oauth-grants/route.ts):
/// a seeded one for the PageSpace CLI and one per approved device flow, each with the access
/// tokens issued under it, which revoking the grant ends (revokeOAuthGrantFamily). What the
/// account lists and revokes is the family's live refresh-token row
/// (listActiveOAuthGrantsForUser and findOAuthGrantById, apps/web/src/lib/repositories/
/// oauth-repository.ts:898-930): a family without offline_access has none and is not listed,
/// and each rotation replaces the row, with a new id and the scopes it narrowed to
/// (refreshTokenGrant, :615-645). Revoking needs a step-up token (a fresh passkey or e-mail-link
/// confirmation, step-up-gate.ts), bound to the one action it confirms
/// (`{op:"revoke_oauth_grant", grantId}`, [grantId]/route.ts:43-50): nobody confirms anything
/// here, so one is seeded for grant_demo and the test route mints others; each is good once,
/// and only for its action.
final class OAuthGrants: Sendable {
    /// A live refresh-token row: what the account sees of a grant.
    struct Row: Sendable {
        let id: String
        let scopes: [String]
        let createdAt: Int64

        /// The row a token pair of `scopes` leaves: one only with offline_access (issue-tokens.ts:69-95).
        static func of(_ scopes: [String], id: String = Identifiers.cuid()) -> Row? {
            scopes.contains("offline_access") ? Row(id: id, scopes: scopes, createdAt: Timestamp.now()) : nil
        }
    }

    struct Grant: Sendable {
        /// The token family's.
        let id: String
        let clientName: String
        var row: Row?
        var tokens: [String] = []
        var revoked = false

        /// describeGrantScopes (packages/lib/src/auth/oauth/grant-scope-summary.ts, consent.ts).
        var listing: JSON {
            let scopes = row?.scopes ?? []
            var descriptions: [JSON] = []
            for scope in scopes {
                if scope.hasPrefix("name:") {
                    let name = String(scope.dropFirst(5)).removingPercentEncoding ?? String(scope.dropFirst(5))
                    descriptions.append(.string("Name this key \"\(name)\" — shown in `pagespace keys list` and to anyone else with access to this account's key list."))
                }
            }
            if scopes.contains("account") {
                descriptions.append("Full access to your PageSpace account — everything you can see and do, in every drive, now and in the future.")
            }
            if scopes.contains("offline_access") {
                descriptions.append("Stay connected until you revoke access (issues a long-lived refresh credential).")
            }
            if scopes.contains("manage_keys") {
                descriptions.append("Create and manage access keys on your behalf — cannot read or write any of your content directly.")
            }
            for scope in scopes where scope.hasPrefix("drive:") {
                let drive = scope.dropFirst(6).split(separator: ":").first.map(String.init) ?? ""
                let name = drive == SeedData.driveID ? "Demo Drive" : drive
                descriptions.append(.string("Act as you in \(name) — everything you can currently do there (your access, including future changes to it). No access to any other drive."))
            }
            return [
                "id": .string(row?.id ?? id), "clientName": .string(clientName), "scopeDescriptions": .array(descriptions),
                "createdAt": .string(Timestamp.iso8601(row?.createdAt ?? 0)),
            ]
        }
    }

    static let seededStepUpToken = "ps_stepup_demo"

    private struct State {
        var grants = [Grant(id: "grant_demo", clientName: "PageSpace CLI",
                            row: Row(id: "grant_demo", scopes: ["account", "offline_access"],
                                     createdAt: Timestamp.seedEpoch - 2 * Timestamp.day))]
        /// Each unused step-up token and the action it is bound to.
        var stepUpTokens: [String: ActionBinding] = [
            OAuthGrants.seededStepUpToken: ActionBinding(["op": "revoke_oauth_grant", "grantId": "grant_demo"]),
        ]
    }

    /// What a step-up confirmed (computeActionBindingHash, packages/lib/src/auth/
    /// step-up-decisions.ts: the keys sorted, a missing value as ""; compared whole).
    struct ActionBinding: Equatable, Sendable {
        let parts: [String: String]

        init(_ parts: [String: String?]) { self.parts = parts.mapValues { $0 ?? "" } }

        /// The binding of a request body's `actionBinding` object (strings, or null).
        init?(_ json: JSON?) {
            guard let object = json?.objectValue else { return nil }
            var parts: [String: String?] = [:]
            for (key, value) in object {
                if value == .null { parts[key] = .some(nil); continue }
                guard let text = value.stringValue else { return nil }
                parts[key] = text
            }
            self.init(parts)
        }
    }

    private let state = Mutex(State())

    /// Records an approved device flow and the access token issued under it; the family's id.
    @discardableResult
    func add(scopes: [String], token: String?) -> String {
        let id = Identifiers.cuid()
        let grant = Grant(id: id, clientName: "PageSpace CLI", row: Row.of(scopes, id: id), tokens: token.map { [$0] } ?? [])
        state.withLock { $0.grants.append(grant) }
        return grant.id
    }

    /// A refresh of the family `id`: its new access token, and the row that replaces the
    /// refreshed one (none when the scopes no longer hold offline_access); false when the
    /// grant is revoked (revokeOAuthGrantFamily ended its refresh tokens too).
    func rotated(_ id: String, token: String, scopes: [String]) -> Bool {
        state.withLock { state in
            guard let index = state.grants.firstIndex(where: { $0.id == id && !$0.revoked }) else { return false }
            state.grants[index].tokens.append(token)
            state.grants[index].row = Row.of(scopes)
            return true
        }
    }

    func isActive(_ id: String) -> Bool { state.withLock { $0.grants.contains { $0.id == id && !$0.revoked } } }

    /// The grants the account lists: those with a live refresh-token row.
    var listed: [Grant] { state.withLock { $0.grants.filter { !$0.revoked && $0.row != nil } } }

    /// consumeStepUpGrant (packages/lib/src/auth/step-up-service.ts:252-279): true once per
    /// token, for the action it is bound to; a token shown for another action is refused and
    /// stays unused (decideStepUpGrant's binding_mismatch comes before the use is written).
    func consumeStepUp(_ token: String, for binding: ActionBinding) -> Bool {
        state.withLock { state in
            guard state.stepUpTokens[token] == binding else { return false }
            state.stepUpTokens[token] = nil
            return true
        }
    }

    /// A new step-up token for `binding` (what a passkey or e-mail-link ceremony mints,
    /// step-up/webauthn/verify/route.ts).
    func mintStepUp(for binding: ActionBinding) -> String {
        let token = Identifiers.random(prefix: "ps_stepup_", bytes: 16)
        state.withLock { $0.stepUpTokens[token] = binding }
        return token
    }

    /// Revokes the family `id`; its access tokens, or nil when there is no such family.
    func revokeFamily(_ id: String) -> [String]? {
        revoke { $0.id == id }
    }

    /// Revokes the grant whose live row is `rowID` (findOAuthGrantById); its access tokens,
    /// or nil when no live row has that id.
    func revokeListed(_ rowID: String) -> [String]? {
        revoke { $0.row?.id == rowID }
    }

    private func revoke(where matches: (Grant) -> Bool) -> [String]? {
        state.withLock { state in
            guard let index = state.grants.firstIndex(where: { matches($0) && !$0.revoked }) else { return nil }
            state.grants[index].revoked = true
            return state.grants[index].tokens
        }
    }
}
