import Hummingbird
import Logging
import NIOCore
import PSCore
import ServiceLifecycle

/// Builds the router for the dialect and runs the Hummingbird application until SIGTERM or
/// SIGINT. Prints the URL a profile needs on stdout once the socket is bound.
struct LocalServer {
    let state: ServerState
    let host: String
    let port: Int

    func makeRouter() -> Router<ServerContext> {
        let router = Router(context: ServerContext.self)
        router.add(middleware: ServerMiddleware(state: state))
        TestRoutes(state: state).register(on: router)
        // The other servers have none of PageSpace's routes: only their own.
        switch state.dialect {
        case .openai:
            OpenAIRoutes(state: state).register(on: router)
            return router
        case .lucid:
            LucidRoutes(state: state).register(on: router)
            return router
        case .gemini:
            GeminiRoutes(state: state).register(on: router)
            return router
        case .pagespace: router.add(middleware: EdgeGate())  // before every route of the current API
        case .legacy: break
        }
        AuthRoutes(state: state).register(on: router)
        WorkspaceRoutes(state: state).register(on: router)
        PageAIRoutes(state: state).register(on: router)
        switch state.dialect {
        case .pagespace:
            GlobalRoutes(state: state).register(on: router)
            StreamJoinRoutes(state: state).register(on: router)
            MessageEditRoutes(state: state).register(on: router)
            OAuthRoutes(state: state).register(on: router)
            KeyRoutes(state: state).register(on: router)
            AgentCompletionRoutes(state: state).register(on: router)
            AgentConversationRoutes(state: state).register(on: router)
            AISettingsRoutes(state: state).register(on: router)
            SearchRoutes(state: state).register(on: router)
            RealtimeRoutes(state: state).register(on: router)
            LocalModelRoutes(state: state).register(on: router)
            SubscriptionRoutes(state: state).register(on: router)
        case .legacy:
            LegacyConversationRoutes(state: state).register(on: router)
            LegacyAISettingsRoutes(state: state).register(on: router)
            LegacyAgentRoutes(state: state).register(on: router)
        case .openai, .lucid, .gemini: break
        }
        return router
    }

    func run() async throws {
        // Hummingbird's own log goes to stderr, and only when something is wrong: stdout
        // carries nothing but the URL line.
        var logger = Logger(label: "ps-local-server", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = .error
        let host = self.host, path = state.dialect.profilePath
        let app = Application(
            router: makeRouter(),
            configuration: .init(address: .hostname(host, port: port), serverName: "ps-local-server"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shownHost = host.contains(":") ? "[\(host)]" : host
                _ = FileDescriptorOutput.writeAll(fd: 1, Array("http://\(shownHost):\(port)\(path)\n".utf8))
            },
            logger: logger)
        var configuration = ServiceGroupConfiguration(
            services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // Open streams must not keep a stopping server alive for long.
        configuration.maximumGracefulShutdownDuration = .seconds(1)
        try await ServiceGroup(configuration: configuration).run()
    }
}
