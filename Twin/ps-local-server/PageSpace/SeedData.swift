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
    /// What the demo user's files take (users.storageUsedBytes): 12 MiB.
    static let storageUsedBytes: Int64 = 12 << 20

    static var user: JSON {
        [
            "id": .string(userID), "name": .string(userName), "email": .string(email), "image": .null,
            "role": "user", "emailVerified": .string(Timestamp.iso8601(Timestamp.seedEpoch - 30 * Timestamp.day)),
            "subscriptionTier": "free",
        ]
    }

    static var drive: JSON {
        [
            "id": .string(driveID), "name": "Demo Drive", "slug": "demo-drive", "ownerId": .string(userID),
            "isOwned": true, "role": "OWNER", "isTrashed": false,
            "createdAt": .string(Timestamp.iso8601(Timestamp.seedEpoch - 86_400 * 20)),
            "updatedAt": .string(Timestamp.iso8601(Timestamp.seedEpoch)),
        ]
    }

    struct Page {
        let id: String
        let title: String
        let type: String
        let position: Int
    }

    static let pages = [
        Page(id: documentPageID, title: "Project Notes", type: "DOCUMENT", position: 1),
        Page(id: agentPageID, title: "Research Assistant", type: "AI_CHAT", position: 2),
        Page(id: "page_folder_demo", title: "Archive", type: "FOLDER", position: 3),
    ]

    /// When every seeded page was created.
    static let pageCreatedAt = Timestamp.seedEpoch - 86_400 * 10

    static func pageJSON(_ page: Page) -> JSON {
        [
            "id": .string(page.id), "title": .string(page.title), "type": .string(page.type), "parentId": .null,
            "driveId": .string(driveID), "position": .integer(Int64(page.position)), "isTrashed": false,
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
