import PSCore

/// What a credential reaches on its server, found by asking routes it may use (which also
/// proves that it works). On the current PageSpace API the kinds of token reach different
/// routes: a session token (`ps_sess_`) everything; an MCP key (`mcp_`) Page AI agents,
/// history and its drives, never the Global assistant nor "who am I"; an OAuth access token
/// (`ps_at_`) "who am I" and reads, but no AI route.
public struct CredentialReach: Sendable {
    public var user: JSON?
    public var globalAssistant: Bool
    public var pageAI: Bool
    /// The drives it may use (nil when the API has no drive listing).
    public var drives: [JSON]?
    /// Why it reaches less than a session would, when it does.
    public var note: String?
    /// What it reaches, in the words of an API that has no Global assistant or agents.
    public var described: String?

    public init(user: JSON?, globalAssistant: Bool, pageAI: Bool, drives: [JSON]?, note: String? = nil) {
        self.user = user
        self.globalAssistant = globalAssistant
        self.pageAI = pageAI
        self.drives = drives
        self.note = note
    }

    /// "Global assistant, Page AI agents" or "no AI route".
    public var summary: String {
        if let described { return described }
        let reached = [globalAssistant ? "Global assistant" : nil, pageAI ? "Page AI agents and their history" : nil]
            .compactMap { $0 }
        return reached.isEmpty ? "no AI route" : reached.joined(separator: ", ")
    }

    /// "Team (drive_1), Personal (drive_2)".
    public var driveSummary: String? {
        guard let drives else { return nil }
        if drives.isEmpty { return "none" }
        return drives.map { drive in
            let id = drive["id"]?.stringValue ?? "?"
            guard let name = drive["name"]?.stringValue, !name.isEmpty else { return id }
            return "\(name) (\(id))"
        }.joined(separator: ", ")
    }
}
