import PSCore
import Synchronization

/// The user's MCP keys: the seeded one and those the device flow hands out, with what
/// `GET /api/auth/mcp-tokens` shows of them (session-repository.ts
/// findUserMcpTokensWithDrives: never the key itself) and their revocation.
final class MCPKeys: Sendable {
    struct Key: Sendable {
        let id: String
        let name: String
        let token: String
        let createdAt: Int64
        let driveIDs: [String]
        var revoked = false

        var listing: JSON {
            [
                "id": .string(id), "name": .string(name), "tokenPrefix": .string(String(token.prefix(12))),
                "lastUsed": .null, "createdAt": .string(Timestamp.iso8601(createdAt)), "isScoped": .bool(!driveIDs.isEmpty),
                "driveScopes": .array(driveIDs.map { drive in
                    ["id": .string(drive), "name": drive == SeedData.driveID ? "Demo Drive" : .string(drive), "role": .null]
                }),
            ]
        }
    }

    private let keys = Mutex<[Key]>([
        Key(id: "key_demo", name: "Demo key", token: SeedData.mcpKey, createdAt: Timestamp.seedEpoch - 5 * Timestamp.day, driveIDs: []),
    ])

    /// The key `token` is, while it works (known and not revoked).
    func key(_ token: String) -> Key? {
        keys.withLock { all in all.first { $0.token == token && !$0.revoked } }
    }

    func issue(name: String, driveIDs: [String]) -> String {
        let token = Identifiers.random(prefix: "mcp_", bytes: 24)
        let key = Key(id: Identifiers.cuid(), name: name, token: token, createdAt: Timestamp.now(), driveIDs: driveIDs)
        keys.withLock { $0.append(key) }
        return token
    }

    /// The keys not revoked, oldest first.
    var active: [Key] { keys.withLock { $0.filter { !$0.revoked } } }

    /// Revokes a key; false when there is no such key (or it is revoked already).
    func revoke(_ id: String) -> Bool {
        keys.withLock { all in
            guard let index = all.firstIndex(where: { $0.id == id && !$0.revoked }) else { return false }
            all[index].revoked = true
            return true
        }
    }
}
