import ArgumentParser
import Foundation
import PSCore

@main
struct PsLocalServer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-local-server",
        abstract: "Run a local PageSpace server (either API generation), a plain OpenAI-compatible one, a Lucid one or a Gemini mobile API, for tests and demos.",
        usage: "ps-local-server [<options>]",
        discussion: """
            Serves one of the APIs below (--dialect) on 127.0.0.1 from memory, as their real servers \
            answer. When it is ready it prints the URL a profile needs (ps-auth login --server) as \
            the only line on stdout: http://127.0.0.1:PORT, with /v1 on the openai dialect (the base \
            URL of an OpenAI-compatible API) and /api/v1 on the gemini dialect. One line per request goes to stderr (never a token or \
            password). SIGTERM or SIGINT stops it; nothing is kept.

            DIALECTS:
              pagespace         PageSpace's current API (the default): opaque
                                tokens, /api/ai/global, AI SDK v6 streams
              pagespace-legacy  PageSpace as it ran in late 2025: password login,
                                JWT and CSRF, /api/ai_conversations, AI SDK v5
                                streams
              openai            a plain OpenAI-compatible server, as Ollama or
                                llama.cpp serve one
              lucid             lucid-agent's API (commit 8cdb90b)
              gemini            the Gemini CLI's mobile API (commit 1fabb479)

            LOGGING IN (URL as printed):
              pagespace         echo ps_sess_demo-session-token |
                                ps-auth login --with-token --server URL (or the
                                MCP key mcp_demo-mcp-key, for Page AI agents)
              pagespace-legacy  echo demo-password | ps-auth login --server URL
                                --email demo@example.com --password-stdin
              openai            ps-auth login --api openai --server URL --model
                                ps-demo (no credential)
              lucid             ps-auth login --api lucid --server URL
                                --user-name Ada (no credential)
              gemini            ps-local-server --print-gemini-token | ps-auth
                                login --api gemini --server URL --with-token

            SEEDED ACCOUNT AND DATA (the PageSpace dialects):
              user      user_demo "Demo User", demo@example.com / demo-password
              current   session token ps_sess_demo-session-token (all routes);
                        MCP key mcp_demo-mcp-key (not Global, settings, abort;
                        the only credential /api/v1/* takes)
              legacy    POST /api/auth/mobile/login (email, password,
                        deviceId) returns {user, token, csrfToken,
                        deviceToken}; /api/auth/login sets the accessToken
                        cookie and returns {id, name, email}; send the token
                        as a Bearer token (or as the cookie, and then
                        X-CSRF-Token on POST, PATCH and DELETE); the sixth
                        failed login in 15 minutes is 429, as on the real
                        server; the MCP key is refused on
                        /api/ai_conversations, settings and agent config
              global    conversation demoglobalconversation (--history-messages)
              drive     drivedemo; AI_CHAT page page_agent_demo with the
                        conversation demoagentconversation; page page_doc_demo
              drive     driveteam (current only); AI_CHAT page page_agent_team,
                        which a key scoped to drivedemo does not reach
              keys      MCP key id key_demo; OAuth grant grant_demo; one
                        step-up token ps_stepup_demo (good once, for
                        revoking grant_demo)

            OPENAI-COMPATIBLE API (current dialect, MCP key only):
              GET /api/v1/models    the agents, as ps-agent://PAGE_ID
              POST /api/v1/chat/completions
                                    {"model":"ps-agent://page_agent_demo",
                                    "messages":[…],"conversation_id":…,
                                    "client_manages_history":…} streams
                                    chat.completion.chunk events; kept in the
                                    conversation only when conversation_id is
                                    given, and then answered from the kept
                                    history and the last message sent (unless
                                    client_manages_history)
              POST|GET /api/v1/conversations
                                    a new conversation; the list
              GET|DELETE /api/v1/conversations/ID
                                    one conversation

            OPENAI DIALECT (its routes are under the printed URL, which ends in /v1):
              POST /v1/chat/completions
                                    stream true or false;
                                    stream_options.include_usage; a model not
                                    listed: 404 model_not_found
              GET /v1/models        ps-demo, ps-demo-mini
              GET /v1/models/ID     one of them
            No credential is needed (a bearer token is taken), nothing is kept: the client sends \
            the whole conversation. A reply with a tool call ends there (finish_reason tool_calls); \
            after the client's role "tool" message it goes on. Errors in OpenAI's shape.

            LUCID DIALECT:
              GET /health           the server's health
              POST /v1/users        create, or overwrite name, email and timezone
                                    by external_id: 201
              GET|DELETE /v1/users/EXTERNAL_ID
                                    one user
              POST /v1/conversations
                                    a new conversation
              GET /v1/conversations/user/USER_ID
                                    a user's, newest created first (an unknown
                                    user has none)
              GET|PATCH|DELETE /v1/conversations/ID
                                    one conversation (DELETE: 500 while it has
                                    messages)
              POST /v1/chat         answered whole: user_message,
                                    assistant_message, response,
                                    conversation_id; message at most 10000
                                    characters; after --pace-ms and a slow
                                    fault's pauseMs; a drop fault closes it
                                    unanswered
              GET /v1/conversations/ID/messages
                                    oldest first (also
                                    /v1/messages/conversations/ID/messages)
              POST /v1/facts/extract
                                    facts from the user's sentences: "I work as",
                                    "I am a", "I live in", "I like", "my X is"
              GET /v1/facts/users/ID/facts
                                    a user's facts
              PATCH /v1/facts/ID    one fact
              POST /v1/facts/search cosine of word counts, min_similarity 0.82 by
                                    default
              POST /v1/summaries/generate
                                    a summary
              GET /v1/conversations/ID/summaries
                                    a conversation's (also
                                    /v1/summaries/conversations/ID)
            As lucid-agent's source has them (commit 8cdb90b), no credential. Lists take limit (at \
            most 500) and offset. Ids are UUIDs. Errors: {"error":"..."}; 400 {"error":"Validation \
            failed","details":[{field,message}]}.

            GEMINI DIALECT:
              POST /api/v1/conversations
                                    {title?,model?} → 201 (at most 10)
              GET /api/v1/conversations
                                    the list
              GET|DELETE /api/v1/conversations/ID
                                    one conversation
              POST /api/v1/conversations/ID/messages
                                    {content}: 200, then SSE events token,
                                    thought {text:{subject,description}},
                                    tool-call, done {fullResponse,usage}, error
                                    {code,message}; ": keepalive" every
                                    --keepalive-ms. A tool call ends in error
                                    STREAM_ERROR, then done (--gemini-runs-tools:
                                    a tool-result and the rest of the reply)
              POST /api/v1/conversations/ID/cancel
                                    → {cancelled:true}; the stream ends with done
              GET|PUT /api/v1/settings
                                    nothing checked; approvalMode auto_edit by
                                    default
            packages/mobile-api (commit 1fabb479). Every request needs Authorization: Bearer with \
            the demo Firebase ID token (else 401), \(GeminiAuth.demoToken.prefix(24))… \
            (ps-local-server --print-gemini-token prints it whole). A conversation unused for \
            --gemini-idle-ms is forgotten. A status fault on a messages path is the model's error \
            in the stream: error MODEL_ERROR "[object Object]", then done.

            REALTIME (pagespace dialect): GET /api/auth/socket-token (session \
            only) gives a ps_sock_ token valid 5 minutes; Socket.IO (Engine.IO 4, \
            HTTP long-polling) at /socket.io/ takes it (or the session token) as \
            auth.token; join_conversation ID joins conv:ID, whose \
            conversation:message_created, message_updated (a reply: an empty \
            'streaming' placeholder, then the whole message), message_deleted and \
            undo_applied carry {conversationId, rev, scope, message} (over 32 KB: \
            messageRef and truncated:true). Pings every --ping-interval-ms.

            REPLIES: a message containing "tool" gets a read_page tool call \
            then text; "table" a markdown table; "code" a fenced code block; \
            "think" or "reason" reasoning first; anything else a few \
            paragraphs of markdown quoting the question; on the pagespace \
            dialect "ask me" a reply that stops on an ask_user question (a \
            trailing assistant message with its answer goes on, naming it). A request for \
            JSON (response_format json_schema, or "...matches this JSON Schema:" and the schema \
            on the next line, as ps-send --schema asks) gets the schema's simplest value; \
            "wrong json" in the message prose instead, "always wrong" in the schema prose \
            every time, "fenced json" a ```json block. On the chat \
            completion routes the system messages' words count too. Events are paced \
            --pace-ms apart. The reply is stored as it was streamed (also when \
            the client hangs up, or what was sent before POST /api/ai/abort).

            FAULTS (POST a JSON object to /_test/faults; no credentials):
              {"status":429,"retryAfter":1,"times":1,"path":"/api/ai"}
                  the next matching requests (any path if none given) get
                  that status (401 402 403 404 409 429 500 502 503 504) with
                  the dialect's error body (or "body", when given); then
                  the server recovers
              {"drop":true,"afterEvents":3}
                  the next stream is cut after 3 events: no [DONE] (a
                  non-streaming chat completion: closed unanswered);
                  with "midEvent":true, half of the 4th event is sent
                  first (PageSpace streams). The reply goes on being
                  generated: GET /api/ai/chat/stream-join/{messageId}
                  joins it
              {"stop":true,"afterEvents":3}
                  the next stream closes after 3 events with [DONE] and no
                  finish (a reply stopped or taken over on the server)
              {"slow":true,"keepAliveMs":50,"pauseMs":300,"events":2}
                  the next stream pauses before each event (or only the
                  first "events" after the first), sending ": keep-alive"
                  comments meanwhile (gemini: its own ": keepalive")
              {"unstoppable":true}
                  the next reply runs where an abort is not acted on:
                  POST /api/ai/abort answers code "unconfirmed", it goes on
              {"frameLog":"kept"} or {"frameLog":"cut","afterFrames":4}
                  the next reply's frame log outlives it (whole, or its
                  first frames only): stream-join of the ended reply
                  replays it ("reload":true unless it holds a finish)
              {"ring":3}
                  the next reply keeps only its last 3 chunks in memory:
                  joining from an older one gets {"done":true,
                  "resumeFromSeq":N}
              {"dropHistory":true,"afterPages":1}
                  after one history page, the next history GET is closed
                  without an answer
            DELETE /_test/faults clears them.

            TEST DATA (no credentials):
              POST /_test/messages  {"conversationId":"demoglobalconversation",
                                    "count":3,"sameTimestamp":false} appends
                                    alternating user/assistant messages after
                                    the newest one (45 s apart, or all at its
                                    timestamp); "text": every message's text
                                    instead
              DELETE /_test/messages/ID
                                    removes one message
              GET /_test/realtime   the Socket.IO sessions and their rooms
              POST /_test/realtime/outage
                                    cuts every session and leaves /socket.io/
                                    unanswered until DELETE
                                    /_test/realtime/outage
              POST /_test/realtime/lose
                                    {"events":1} loses the next conversation
                                    event on its way
              POST /_test/lucid/messages
                                    {"conversation_id":"…","count":3000,
                                    "per_timestamp":50} (lucid dialect) appends
                                    alternating user/assistant messages, 50
                                    sharing each created_at
              DELETE /_test/lucid/messages/ID
                                    removes one (lucid dialect)
              POST /_test/device    {"outcome":"approve","afterPolls":2,
                                    "slowDownAtPoll":1,"interval":0}: how the
                                    device login is answered (approve, deny,
                                    expire; pending by default), after how many
                                    polls
              POST /_test/step-up   {"actionBinding":{"op":"revoke_oauth_grant",
                                    "grantId":"…"}} gives {stepUpToken}: good
                                    once, for that action only
              GET /_test/requests   the requests received (method, path, query,
                                    headers, JSON body; secrets replaced by
                                    "<redacted>"; receivedAt in milliseconds
                                    since 1970); DELETE empties it

            EXAMPLES:
              ps-local-server --port 8080 &
              echo ps_sess_demo-session-token |
                  ps-auth login --with-token --server http://127.0.0.1:8080
              ps-local-server --dialect openai --port 8081 &  # http://127.0.0.1:8081/v1
              ps-auth login --api openai --server http://127.0.0.1:8081/v1 --model ps-demo
              coproc ps-local-server --port 0 --quiet; read -r url <&"${COPROC[0]}"
              curl -H 'Authorization: Bearer ps_sess_demo-session-token' \\
                  "$url/api/ai/global/demoglobalconversation/messages?limit=2"

            \(ExitStatus.helpText([.success, .failure, .usage]))
            """,
        version: ToolVersion.line)

    static func main() { runAsTool() }

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one (the URL line says which).")
    var port = 0

    @Option(help: "The API to speak: pagespace (the default), pagespace-legacy, openai, lucid or gemini. pagespace is PageSpace's current API, pagespace-legacy its late-2025 one, openai a plain OpenAI-compatible server, lucid lucid-agent's API, gemini the Gemini CLI's mobile API.")
    var dialect = Dialect.pagespace

    @Option(name: .customLong("pace-ms"), help: ArgumentHelp(
        "Milliseconds between stream events. 0 sends them at once.", valueName: "ms"))
    var paceMs = 20

    @Option(help: ArgumentHelp(
        "Messages in the seeded global conversation. User and assistant alternate.", valueName: "n"))
    var historyMessages = 6

    @Option(help: ArgumentHelp(
        "Seeded messages in a row sharing one createdAt. A burst written in the same tick.", valueName: "n"))
    var messagesPerTimestamp = 1

    @Option(name: .customLong("keepalive-ms"), help: ArgumentHelp(
        "Milliseconds between the gemini dialect's keep-alive comments.", valueName: "ms"))
    var keepAliveMs = 15_000

    @Option(name: .customLong("ping-interval-ms"), help: ArgumentHelp(
        "The realtime service's Engine.IO ping interval. In milliseconds (engine.io's default).", valueName: "ms"))
    var pingIntervalMs = 25_000

    @Option(name: .customLong("ping-timeout-ms"), help: ArgumentHelp(
        "How long the realtime service waits for a pong. In milliseconds; then it closes the session.", valueName: "ms"))
    var pingTimeoutMs = 20_000

    @Option(name: .customLong("gemini-idle-ms"), help: ArgumentHelp(
        "How long the gemini dialect keeps an idle conversation. In milliseconds without a message (the real server's 30 minutes).",
        valueName: "ms"))
    var geminiIdleMs = 30 * 60 * 1000

    @Flag(name: .customLong("gemini-runs-tools"), help: "The gemini dialect runs tool calls and sends their results (the real server fails every tool call).")
    var geminiRunsTools = false

    @Flag(name: .customLong("print-gemini-token"), help: "Print the gemini dialect's demo Firebase ID token and exit.")
    var printGeminiToken = false

    @Option(name: .customLong("legacy-token-seconds"), help: ArgumentHelp(
        "How long a pagespace-legacy JWT lives (the real server's 15 minutes; shorter to try its renewal).", valueName: "seconds"))
    var legacyTokenSeconds = 900

    @Option(name: .customLong("oauth-token-seconds"), help: ArgumentHelp(
        "How long an OAuth access token of the device flow lives (the real server's 15 minutes).", valueName: "seconds"))
    var oauthTokenSeconds = 900

    @Option(name: .customLong("legacy-device-token-seconds"), help: ArgumentHelp(
        "How long a pagespace-legacy device token lives. 90 days; under 7 days it is rotated on every renewal.", valueName: "seconds"))
    var legacyDeviceTokenSeconds = 90 * 86_400

    @Option(help: ArgumentHelp(
        "How the local model servers answer. Current dialect: the deployment's Ollama and LM Studio are reachable (a fixed list of models each), unreachable (the routes' fallback answers) or unconfigured (503; not offered in the AI settings).",
        valueName: "state"))
    var localModels = LocalModelServers.reachable

    @Option(help: ArgumentHelp(
        "The demo user's plan (current dialect). free runs only the free models; pro, founder or business every model.", valueName: "tier"))
    var subscriptionTier = "free"

    @Option(help: ArgumentHelp(
        "How the credit gate answers a send. open, out_of_credits (402), too_many_in_flight or daily_cap_exceeded (429); current dialect.",
        valueName: "reason"))
    var creditGate = ChatAdmission.CreditGate.open

    @Flag(help: "Do not log requests on stderr.")
    var quiet = false

    @Flag(help: "Stop at end of file on standard input. A parent holding a pipe to it ends the server by ending.")
    var watchStdin = false

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard (0...60_000).contains(paceMs) else { throw ValidationError("--pace-ms must be between 0 and 60000") }
        guard (10...3_600_000).contains(keepAliveMs) else {
            throw ValidationError("--keepalive-ms must be between 10 and 3600000")
        }
        guard (1...86_400_000).contains(geminiIdleMs) else { throw ValidationError("--gemini-idle-ms must be between 1 and 86400000") }
        guard (1...1_000).contains(messagesPerTimestamp) else {
            throw ValidationError("--messages-per-timestamp must be between 1 and 1000")
        }
        guard (50...3_600_000).contains(pingIntervalMs), (50...3_600_000).contains(pingTimeoutMs) else {
            throw ValidationError("--ping-interval-ms and --ping-timeout-ms must be between 50 and 3600000")
        }
        guard legacyTokenSeconds >= 1, legacyDeviceTokenSeconds >= 1, oauthTokenSeconds >= 1 else {
            throw ValidationError("--legacy-token-seconds, --legacy-device-token-seconds and --oauth-token-seconds must be at least 1")
        }
        guard ["free", "pro", "founder", "business"].contains(subscriptionTier) else {
            throw ValidationError("--subscription-tier must be free, pro, founder or business")
        }
        guard (0...5_000_000).contains(historyMessages) else {
            throw ValidationError("--history-messages must be between 0 and 5000000")
        }
    }

    func run() throws {
        if printGeminiToken {
            _ = FileDescriptorOutput.writeAll(fd: 1, Array((GeminiAuth.demoToken + "\n").utf8))
            return
        }
        let state = ServerState(dialect: dialect, paceMs: paceMs, quiet: quiet, historyMessages: historyMessages,
            messagesPerTimestamp: messagesPerTimestamp, keepAliveMs: keepAliveMs, localModels: localModels,
            realtimeTiming: .init(pingInterval: .milliseconds(pingIntervalMs), pingTimeout: .milliseconds(pingTimeoutMs)),
            geminiIdleMs: geminiIdleMs, geminiRunsTools: geminiRunsTools,
            legacyLifetimes: .init(accessSeconds: Int64(legacyTokenSeconds), deviceSeconds: Int64(legacyDeviceTokenSeconds)),
            oauthAccessSeconds: Int64(oauthTokenSeconds), subscriptionTier: subscriptionTier, creditGate: creditGate)
        let server = LocalServer(state: state, host: host, port: port)
        if watchStdin { StdinWatch.start() }
        let outcome = BlockingResult()
        Task {
            do {
                try await server.run()
                outcome.finish(nil)
            } catch {
                outcome.finish(error)
            }
        }
        if let error = outcome.wait() {
            throw ToolError(.failure, "cannot serve on \(host):\(port): \(error)")
        }
    }
}

/// Lets the synchronous command wait for the server task.
final class BlockingResult: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var error: (any Error)?

    func finish(_ error: (any Error)?) {
        self.error = error
        done.signal()
    }

    func wait() -> (any Error)? {
        done.wait()
        return error
    }
}
