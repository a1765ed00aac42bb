import ArgumentParser
import PSCore
import PSNet

struct Token: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the token, for other programs.",
        usage: "ps-auth token [<options>]",
        discussion: """
            Prints the token the other commands would use (PAGESPACE_TOKEN if set, else the \
            profile's) and a newline. Use it in a command substitution rather than pasting it \
            into a command line that others can see.

            EXAMPLES:
              curl -H "Authorization: Bearer $(ps-auth token)" \\
                  https://pagespace.ai/api/auth/me
              ps-auth token --profile work | other-tool --token-stdin

            \(ExitStatus.helpText([.success, .failure, .authenticationNeeded]))
            """)

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let session = try connection.resolveSession(environment: Environment.current)
        let credentials = try session.requireCredentials()
        try RecordWriter().writeText(credentials.token + "\n")
    }
}
