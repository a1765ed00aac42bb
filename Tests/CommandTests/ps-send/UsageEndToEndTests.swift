import Foundation
import Testing
import TestSupport

/// The token count from each backend that gives one, through ps-send: in the final message
/// record (`metadata.usage`) and as the dim footer when the reply is shown on a terminal.
/// OpenAI gives it only when asked (`stream_options.include_usage`, which ps-send sends); the
/// Gemini mobile API in its done event. PageSpace's own streams carry none
/// (apps/web/src/app/api/v1/chat/completions/route.ts:655-706 adapts UI chunks only), so no
/// footer is shown there.
@Suite(.serialized) struct UsageEndToEndTests {
    static func finalUsage(_ sandbox: NetworkSandbox, _ arguments: String) throws -> [String: Any]? {
        let result = try sandbox.shell("ps-send \(arguments) | ps-sse | ps-parts --final")
        #expect(result.status == 0, "\(result.stderrText)")
        let record = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        return (record?["metadata"] as? [String: Any])?["usage"] as? [String: Any]
    }

    static func footer(_ lines: [String]) -> String? {
        lines.last { $0.range(of: #"^[0-9,]+ in · [0-9,]+ out$"#, options: .regularExpression) != nil }
    }

    @Test func openAIUsageReachesTheRecordAndTheFooter() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(extra: ["PAGESPACE_API_URL": server.baseURL, "PAGESPACE_API_KIND": "openai"])
        let usage = try #require(try Self.finalUsage(sandbox, "--model ps-demo --new-conversation hello"))
        let output = try #require(usage["completion_tokens"] as? Int)
        #expect(output > 0 && usage["prompt_tokens"] as? Int != nil)
        // The request asked for it.
        let posts = try server.requestLog().filter { ($0["method"] as? String) == "POST" }
        let options = (posts.last?["body"] as? [String: Any])?["stream_options"] as? [String: Any]
        #expect(options?["include_usage"] as? Bool == true, "\(posts.last ?? [:])")

        let screen = try RenderedReplyTests.onTerminal("ps-send --model ps-demo --new-conversation hello", sandbox)
        #expect(screen.status == 0, "\(screen.lines)")
        let line = try #require(Self.footer(screen.lines), "\(screen.lines)")
        #expect(line.hasSuffix(" out") && line.contains(" in · "))
    }

    @Test func geminiUsageReachesTheRecordAndTheFooter() throws {
        let server = try GeminiBackendTests.start()
        defer { server.stop() }
        let sandbox = try GeminiBackendTests.sandbox(server)
        let usage = try #require(try Self.finalUsage(sandbox, "--new-conversation hello"))
        #expect((usage["outputTokens"] as? Int ?? 0) > 0 && usage["inputTokens"] as? Int != nil, "\(usage)")
        let screen = try RenderedReplyTests.onTerminal("ps-send --new-conversation hello", sandbox)
        #expect(screen.status == 0, "\(screen.lines)")
        #expect(Self.footer(screen.lines) != nil, "\(screen.lines)")
    }

    @Test func pageSpaceStreamsCarryNoneAndShowNoFooter() throws {
        let (server, sandbox) = try RenderedReplyTests.session()
        defer { server.stop() }
        #expect(try Self.finalUsage(sandbox, "--new-conversation hello") == nil)
        let screen = try RenderedReplyTests.onTerminal("ps-send --new-conversation hello", sandbox)
        #expect(screen.status == 0)
        #expect(Self.footer(screen.lines) == nil, "\(screen.lines)")
    }
}
