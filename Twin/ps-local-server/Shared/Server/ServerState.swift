import Hummingbird
import Logging
import NIOCore
import PSCore

/// Everything the routes share: the dialect, the data, the faults and the logs.
final class ServerState: Sendable {
    let dialect: Dialect
    let paceMs: Int
    /// How often a gemini stream sends its `: keepalive` comment.
    let keepAliveMs: Int
    let quiet: Bool
    let store: ConversationStore
    /// The realtime service (Socket.IO) of the current dialect.
    let realtime: RealtimeHub
    /// The lucid dialect's users, conversations, facts and summaries.
    let lucid = LucidStore()
    /// The legacy dialect's soft-deleted Global conversations (LegacyConversationRoutes).
    let legacyDeleted = LegacyDeletedConversations()
    let authenticator: Authenticator
    let faults = FaultBoard()
    let requests = RequestLog()
    let streams = StreamRegistry()
    let pendingAborts = PendingAborts()
    let agents: AgentDirectory
    let deviceGrants = DeviceGrants()
    let grants = OAuthGrants()
    let refreshTokens = OAuthRefreshTokens()
    let ids: Identifiers
    let gemini: GeminiConversations
    /// The gemini dialect runs tool calls (the real server fails every one; GeminiEvents).
    let geminiRunsTools: Bool
    let aiSettings: AISettingsStore
    /// How the deployment's Ollama and LM Studio answer.
    let localModels: LocalModelServers
    /// The demo user's users.subscriptionTier (free: only FREE_TIER_MODELS may run).
    let subscriptionTier: String
    /// How the current server's credit gate answers a send.
    let creditGate: ChatAdmission.CreditGate

    init(dialect: Dialect, paceMs: Int, quiet: Bool, historyMessages: Int, messagesPerTimestamp: Int = 1,
         keepAliveMs: Int = 15_000, localModels: LocalModelServers = .reachable,
         realtimeTiming: RealtimeHub.Timing = .init(), geminiIdleMs: Int = 30 * 60 * 1000, geminiRunsTools: Bool = false,
         legacyLifetimes: LegacyLogins.Lifetimes = .init(), oauthAccessSeconds: Int64 = 15 * 60,
         subscriptionTier: String = "free", creditGate: ChatAdmission.CreditGate = .open) {
        self.dialect = dialect
        gemini = GeminiConversations(idleMs: Int64(geminiIdleMs))
        self.geminiRunsTools = geminiRunsTools
        aiSettings = AISettingsStore(catalog: dialect == .legacy ? .legacy : .current)
        agents = AgentDirectory(catalog: aiSettings.catalog, drives: SeedData.drives(dialect))
        self.localModels = localModels
        self.subscriptionTier = subscriptionTier
        self.creditGate = creditGate
        realtime = RealtimeHub(timing: realtimeTiming)
        store = ConversationStore(events: dialect == .pagespace ? ConversationEvents(hub: realtime) : nil)
        self.paceMs = paceMs
        self.keepAliveMs = keepAliveMs
        self.quiet = quiet
        authenticator = Authenticator(dialect: dialect, legacyLifetimes: legacyLifetimes, oauthAccessSeconds: oauthAccessSeconds)
        let nextNumber = HistorySeeder.seed(
            store, globalMessages: historyMessages, perTimestamp: messagesPerTimestamp)
        ids = Identifiers(firstMessageNumber: nextNumber)
    }
}

/// The request context: Hummingbird's basics plus the connection, which the history-drop
/// fault closes without answering.
struct ServerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// Thrown to end a response by closing the connection (fault injection).
struct ConnectionDropped: Error {}
