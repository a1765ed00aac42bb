import ArgumentParser
import PSCore
import PSNet

struct Logout: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tell the server to end the session, then forget the stored credential.",
        usage: "ps-auth logout [<options>]",
        discussion: """
            Forgets the stored credential. The legacy API's logout ends the session on the \
            server too; the current API has no way to end a bearer token from outside the \
            browser (its logout reads only the browser's cookie), so a session token stays \
            valid until it expires or you sign out in the browser, and an MCP key until it is \
            revoked in PageSpace's settings: ps-auth logout says so. The stored token is \
            forgotten even when the server cannot be reached (a warning says so). A token in \
            PAGESPACE_TOKEN is not stored: unset it.

            EXAMPLES:
              ps-auth logout
              ps-auth logout --profile work --local

            \(ExitStatus.helpText([.success, .failure, .interrupted]))
            """)

    @OptionGroup var connection: ConnectionOptions

    @Flag(name: .long, help: "Only forget the credential; do not contact the server.")
    var local = false

    func run() throws {
        Interrupt.install()
        var environment = Environment.current
        environment["PAGESPACE_TOKEN"] = nil
        let session = try connection.resolveSession(environment: environment)
        if Environment.value("PAGESPACE_TOKEN").map({ !$0.isEmpty }) == true {
            Diagnostics.warning("PAGESPACE_TOKEN is set and still overrides stored credentials; unset it")
        }
        // The profile's credential for another server is neither sent there nor forgotten.
        if let elsewhere = session.credentialsHeldBackFor {
            Diagnostics.writeLine(
                "Not logged in to \(session.server) (profile \(session.profileName) is for \(elsewhere); "
                    + "`ps-auth logout --profile \(session.profileName)` without --server logs out of it).")
            return
        }
        // An API without a credential (Lucid) keeps only the user: forgetting it is the logout.
        guard session.credentials != nil || session.profile?.user != nil else {
            Diagnostics.writeLine("Not logged in (profile \(session.profileName)).")
            return
        }
        if !local {
            do {
                if let note = try connection.connect(environment: environment).adapter.logout() {
                    Diagnostics.writeLine("Note: \(note).")
                }
            } catch let error as ToolError where error.status != .interrupted {
                Diagnostics.warning("the server was not told (\(error.message)); forgetting the credential anyway")
            }
        }
        try session.forgetCredentials()
        Diagnostics.writeLine("Logged out of \(session.server) (profile \(session.profileName)).")
    }
}
