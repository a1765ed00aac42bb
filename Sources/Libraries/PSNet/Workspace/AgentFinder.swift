import PSCore

/// A drive with its AI agents.
public struct DriveAgents: Sendable {
    public var drive: JSON
    /// Agent records, each with the drive's `driveId` and `driveName` added.
    public var agents: [JSON]

    public var driveID: String { drive["id"]?.stringValue ?? "" }
    public var driveName: String { drive["name"]?.stringValue ?? driveID }
}

/// An agent named on the command line, found.
public struct FoundAgent: Sendable {
    public var id: String
    /// The agent's record from its drive's list; nil when the API cannot list agents (the
    /// name was then taken as the page id).
    public var record: JSON?
}

/// Finds agents by id or title across the drives a credential reaches.
public enum AgentFinder {
    /// The drives (or the one `drive` names: its id, slug or name) with their agents, in the server's order.
    public static func drives(_ directory: AgentDirectory, matching drive: String? = nil) throws -> [DriveAgents] {
        var drives = try directory.drives()
        if let drive {
            let wanted = drive.lowercased()
            drives = drives.filter { record in
                ["id", "slug", "name"].contains { record[$0]?.stringValue?.lowercased() == wanted }
            }
            guard !drives.isEmpty else {
                throw ToolError(.notFound, "no drive \(TerminalSafeText.quoted(drive)) among yours (ps-agents drives lists them)")
            }
        }
        return try drives.map { drive in
            var listing = DriveAgents(drive: drive, agents: [])
            listing.agents = try directory.agents(inDrive: listing.driveID).map { agent in
                guard var object = agent.objectValue else { return agent }
                object["driveId"] = .string(listing.driveID)
                object["driveName"] = .string(listing.driveName)
                return .object(object)
            }
            return listing
        }
    }

    /// The agent whose id is `reference`, else whose title it is (ignoring case). Exit 6 when
    /// none is, exit 2 listing them when several are. An API that cannot list agents takes
    /// `reference` as the page id.
    public static func find(_ reference: String, adapter: APIAdapter, drive: String? = nil) throws -> FoundAgent {
        guard let directory = adapter as? AgentDirectory else { return FoundAgent(id: reference, record: nil) }
        let all = try drives(directory, matching: drive).flatMap(\.agents)
        if let byID = all.first(where: { $0["id"]?.stringValue == reference }) {
            return FoundAgent(id: reference, record: byID)
        }
        let wanted = reference.lowercased()
        let byTitle = all.filter { $0["title"]?.stringValue?.lowercased() == wanted }
        let shown = TerminalSafeText.quoted(reference)
        switch byTitle.count {
        case 0:
            throw ToolError(.notFound, "no agent \(shown) in your drives (ps-agents list shows them)")
        case 1:
            return FoundAgent(id: byTitle[0]["id"]?.stringValue ?? reference, record: byTitle[0])
        default:
            let candidates = byTitle.map { agent in
                "\(agent["id"]?.stringValue ?? "?") (in \(agent["driveName"]?.stringValue ?? "?"))"
            }
            throw ToolError(.usage, "\(byTitle.count) agents are called \(shown): "
                + TerminalSafeText.sanitize(candidates.joined(separator: ", ")) + "; name one by its id")
        }
    }
}
