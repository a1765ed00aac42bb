import PSCore
import Synchronization

/// The drive's pages and each page's agent configuration: the seeded ones, and the pages
/// made at run time (`POST /api/pages`). Every page has a configuration, as every row of
/// PageSpace's pages table has the columns (empty for a document).
final class AgentDirectory: Sendable {
    struct Config: Sendable {
        var systemPrompt = ""
        var enabledTools: [String] = []
        /// "" when none is set (the agent then uses the user's default).
        var aiProvider = ""
        var aiModel = ""

        /// The seeded agent's: the catalog's default pair.
        static func seeded(_ catalog: ModelCatalog) -> Config {
            Config(systemPrompt: "You are a careful research assistant for the Demo Drive. Cite the pages you read.",
                   enabledTools: ["read_page", "list_pages"], aiProvider: catalog.defaultProvider, aiModel: catalog.defaultModel)
        }
    }

    struct Page: Sendable {
        let id: String
        var title: String
        let type: String
        let driveID: String
        let position: Int
        let createdAt: Int64
        var updatedAt: Int64
        var config: Config

        var json: JSON {
            [
                "id": .string(id), "title": .string(title), "type": .string(type), "parentId": .null,
                "driveId": .string(driveID), "position": .integer(Int64(position)), "isTrashed": false,
                "content": "", "contentMode": "html",
                "systemPrompt": config.systemPrompt.isEmpty ? .null : .string(config.systemPrompt),
                "enabledTools": .array(config.enabledTools.map(JSON.string)),
                "aiProvider": config.aiProvider.isEmpty ? .null : .string(config.aiProvider),
                "aiModel": config.aiModel.isEmpty ? .null : .string(config.aiModel),
                "createdAt": .string(Timestamp.iso8601(createdAt)), "updatedAt": .string(Timestamp.iso8601(updatedAt)),
            ]
        }
    }

    private let pages: Mutex<[Page]>
    /// The user's drives, in the order GET /api/drives lists them.
    let drives: [SeedData.Drive]

    init(catalog: ModelCatalog, drives: [SeedData.Drive] = [SeedData.demoDrive]) {
        self.drives = drives
        let driveIDs = Set(drives.map(\.id))
        pages = Mutex(SeedData.pages.filter { driveIDs.contains($0.driveID) }.map { seed in
            Page(id: seed.id, title: seed.title, type: seed.type, driveID: seed.driveID, position: seed.position,
                 createdAt: SeedData.pageCreatedAt, updatedAt: Timestamp.seedEpoch,
                 config: seed.type == "AI_CHAT" ? .seeded(catalog) : Config())
        })
    }

    func drive(_ id: String) -> SeedData.Drive? { drives.first { $0.id == id } }

    /// A drive's pages in position order.
    func pages(inDrive driveID: String) -> [Page] {
        pages.withLock { $0.filter { $0.driveID == driveID }.sorted { $0.position < $1.position } }
    }

    /// The AI_CHAT pages of the given drives (every drive when none is given), in the order
    /// they were made.
    func agents(inDrives driveIDs: [String]) -> [Page] {
        pages.withLock { all in
            all.filter { $0.type == "AI_CHAT" && (driveIDs.isEmpty || driveIDs.contains($0.driveID)) }
        }
    }

    func page(_ id: String) -> Page? { pages.withLock { all in all.first { $0.id == id } } }

    func isAgent(_ id: String) -> Bool { page(id)?.type == "AI_CHAT" }

    /// A new page at the end of the drive's root (pageService.createPage).
    func create(title: String, type: String, driveID: String, config: Config) -> Page {
        pages.withLock { all in
            let now = Timestamp.now()
            let position = (all.filter { $0.driveID == driveID }.map(\.position).max() ?? 0) + 1
            let page = Page(id: Identifiers.cuid(), title: title, type: type, driveID: driveID, position: position,
                            createdAt: now, updatedAt: now, config: config)
            all.append(page)
            return page
        }
    }

    /// Stores a changed configuration; nil for an unknown page.
    func setConfig(_ pageID: String, _ config: Config) -> Page? {
        pages.withLock { all in
            guard let index = all.firstIndex(where: { $0.id == pageID }) else { return nil }
            all[index].config = config
            all[index].updatedAt = Timestamp.now()
            return all[index]
        }
    }
}
