import PSCore

/// The current server's drive scope of MCP keys (apps/web/src/lib/auth/index.ts:716-925): a key
/// scoped to drives reaches only those drives and their pages; a session, an unscoped key (and
/// here an OAuth token) every drive of the user's. Each route calls the check before its own
/// permission checks, so a scoped key gets this 403 where a session would get the route's own
/// answer.
enum DriveScope {
    static let outside = "This token does not have access to this drive"

    /// checkMCPDriveScope (index.ts:785-811).
    static func checkDrive(_ credential: Authenticator.Credential, _ driveID: String) throws {
        let allowed = Authenticator.allowedDrives(credential)
        guard allowed.isEmpty || allowed.contains(driveID) else { throw Refusal(status: .forbidden, error: outside) }
    }

    /// checkMCPPageScope (index.ts:820-856): the page's drive; for a scoped key a page that
    /// does not exist is a 404 "Page not found" (looked up only for a scoped key, :830-845).
    static func checkPage(_ credential: Authenticator.Credential, _ pageID: String, in agents: AgentDirectory) throws {
        let allowed = Authenticator.allowedDrives(credential)
        guard !allowed.isEmpty else { return }
        guard let page = agents.page(pageID) else { throw Refusal.notFound("Page not found") }
        guard allowed.contains(page.driveID) else { throw Refusal(status: .forbidden, error: outside) }
    }

    /// checkMCPCreateScope (index.ts:896-925) for a page made in `driveID`.
    static func checkCreate(_ credential: Authenticator.Credential, driveID: String) throws {
        try checkDrive(credential, driveID)
    }
}
