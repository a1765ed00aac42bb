import ArgumentParser
import PSCore
import PSNet

@main
struct PsAuth: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-auth",
        abstract: "Log in to a server (PageSpace, an OpenAI-compatible one, Lucid, the Gemini mobile API), and show, print or forget the credential.",
        discussion: """
            Profiles name a server, the API it speaks and a credential. Settings live in \
            $XDG_CONFIG_HOME/ps-tools/config.json (default ~/.config/ps-tools/), tokens in \
            credentials.json next to it, mode 0600; a credentials file others can read, or that is a \
            link or a folder, is refused. Neither file is written over when part of it cannot be \
            read (exit 1); a config.json that is a link is written through. A server URL with a \
            user name or password in it is refused. \
            PAGESPACE_TOKEN and PAGESPACE_API_URL override the stored token and server; \
            --profile or PS_PROFILE pick a profile.

            Two PageSpace APIs are spoken: pagespace (the current server: paste a ps_sess_ or \
            mcp_ token) and pagespace-legacy (email and password, a JWT and a CSRF token). When \
            no --api is given the kind is told from the token, or asked of the server, and \
            remembered. --api openai (an OpenAI-compatible server) and --api lucid (Lucid: the \
            user is created from a hash of this machine's id and the profile) need no credential; \
            --api gemini (the Gemini mobile API) takes a Firebase ID token with --with-token.

            Secrets are never taken from the command line: passwords come from the terminal \
            without echo or from stdin, tokens from stdin.

            EXAMPLES:
              ps-auth login --with-token --server https://pagespace.example < token.txt
              ps-auth login --server http://127.0.0.1:8080 --email demo@example.com
              printf %s "$PASSWORD" | ps-auth login --email me@example.com --password-stdin
              ps-auth status
              curl -H "Authorization: Bearer $(ps-auth token)" \\
                  https://pagespace.ai/api/auth/me
              ps-auth logout --profile work
              ps-auth set-model llama3.2 --profile ollama

            \(ConnectionOptions.environmentHelp)

            \(ExitStatus.helpText([.success, .failure, .usage, .authenticationNeeded, .forbidden, .rateLimited,
                                   .serverError, .networkError, .interrupted]))
            """,
        version: ToolVersion.line,
        subcommands: [Login.self, Status.self, Token.self, Logout.self, SetModel.self],
        defaultSubcommand: Status.self)

    static func main() { runAsTool() }
}
