import PSCore

/// The fixed account, drive and pages every run starts with (server-contract.md).
enum SeedData {
    static let userID = "user_demo"
    static let userName = "Demo User"
    static let email = "demo@example.com"
    static let password = "demo-password"
    static let sessionToken = "ps_sess_demo-session-token"
    static let mcpKey = "mcp_demo-mcp-key"

    static let globalConversationID = "demoglobalconversation"
    static let driveID = "drivedemo"
    static let agentPageID = "page_agent_demo"
    static let documentPageID = "page_doc_demo"
    static let agentConversationID = "demoagentconversation"
    /// A second drive of the demo user's (current dialect), with an agent of its own: what a
    /// key scoped to drivedemo does not reach.
    static let secondDriveID = "driveteam"
    static let secondAgentPageID = "page_agent_team"
    /// What the demo user's files take (users.storageUsedBytes): 12 MiB.
    static let storageUsedBytes: Int64 = 12 << 20

    static var user: JSON {
        [
            "id": .string(userID), "name": .string(userName), "email": .string(email), "image": .null,
            "role": "user", "emailVerified": .string(Timestamp.iso8601(Timestamp.seedEpoch - 30 * Timestamp.day)),
            "subscriptionTier": "free",
        ]
    }

    struct Drive: Sendable {
        let id: String
        let name: String
        let slug: String

        var json: JSON {
            [
                "id": .string(id), "name": .string(name), "slug": .string(slug), "ownerId": .string(userID),
                "isOwned": true, "role": "OWNER", "isTrashed": false,
                "createdAt": .string(Timestamp.iso8601(Timestamp.seedEpoch - 86_400 * 20)),
                "updatedAt": .string(Timestamp.iso8601(Timestamp.seedEpoch)),
            ]
        }
    }

    static let demoDrive = Drive(id: driveID, name: "Demo Drive", slug: "demo-drive")
    static let secondDrive = Drive(id: secondDriveID, name: "Team Drive", slug: "team-drive")
    static var drive: JSON { demoDrive.json }

    /// The drives each dialect seeds: the second one only on the current server.
    static func drives(_ dialect: Dialect) -> [Drive] {
        dialect.isCurrent ? [demoDrive, secondDrive] : [demoDrive]
    }

    struct Page {
        let id: String
        let title: String
        let type: String
        let position: Int
        var driveID = SeedData.driveID
    }

    static let pages = [
        Page(id: documentPageID, title: "Project Notes", type: "DOCUMENT", position: 1),
        Page(id: agentPageID, title: "Research Assistant", type: "AI_CHAT", position: 2),
        Page(id: "page_folder_demo", title: "Archive", type: "FOLDER", position: 3),
        Page(id: secondAgentPageID, title: "Team Planner", type: "AI_CHAT", position: 1, driveID: secondDriveID),
    ]

    /// When every seeded page was created.
    static let pageCreatedAt = Timestamp.seedEpoch - 86_400 * 10

    static func pageJSON(_ page: Page) -> JSON {
        [
            "id": .string(page.id), "title": .string(page.title), "type": .string(page.type), "parentId": .null,
            "driveId": .string(page.driveID), "position": .integer(Int64(page.position)), "isTrashed": false,
            "createdAt": .string(Timestamp.iso8601(pageCreatedAt)),
            "updatedAt": .string(Timestamp.iso8601(Timestamp.seedEpoch)),
        ]
    }


    static let availableTools: [(String, String)] = [
        ("read_page", "Read the content of a page"),
        ("list_pages", "List the pages of a drive"),
        ("create_page", "Create a new page"),
        ("replace_lines", "Replace lines in a document"),
    ]
}
