import Foundation
import Testing
import TestSupport

/// A second reading of the Gemini mobile API routes the twin serves, against packages/mobile-api
/// of patnir411/gemini-cli (branch claude/ios-app-conversion-TmGG8, 1fabb479): what differed.
@Suite struct GeminiRouteReadingTests {
    /// The `done` event's data of one send.
    static func done(_ server: LocalServer, _ content: String) throws -> [String: Any] {
        let made = try GeminiBackendTests.api(server, "POST", "/conversations", body: "{}").jsonObject()
        let id = try #require(made["id"] as? String)
        let sent = try GeminiBackendTests.api(server, "POST", "/conversations/\(id)/messages", body: #"{"content":"\#(content)"}"#)
        let data = sent.text.components(separatedBy: "event: done\ndata: ").last?.split(separator: "\n").first ?? ""
        return try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any], "\(sent.text)")
    }

    static func usage(_ done: [String: Any]) -> (input: Int, output: Int) {
        let usage = done["usage"] as? [String: Any] ?? [:]
        return (usage["inputTokens"] as? Int ?? -1, usage["outputTokens"] as? Int ?? -1)
    }

    // sessionManager.ts:177-191: each model call's Finished event replaces the usage, so `done`
    // reports the last call's: with tools run, its prompt holds the first call's output and the
    // tool's result, and its output is the final text only; candidatesTokenCount leaves the
    // thoughts out.
    @Test func doneReportsTheLastModelCallsUsage() throws {
        let failing = try GeminiBackendTests.start()
        defer { failing.stop() }
        let running = try GeminiBackendTests.start(["--gemini-runs-tools"])
        defer { running.stop() }
        let first = Self.usage(try Self.done(failing, "think, then use a tool"))
        let last = try Self.done(running, "think, then use a tool")
        let usage = Self.usage(last)
        #expect(first.input > 0 && usage.input > first.input, "\(first) \(usage)")
        let text = try #require(last["fullResponse"] as? String)
        #expect(usage.output == (text.utf8.count + 3) / 4, "\(usage) for \(text.utf8.count) bytes of text")

        let thinking = try Self.done(failing, "think about the weather")
        let answer = try #require(thinking["fullResponse"] as? String)
        #expect(Self.usage(thinking).output == (answer.utf8.count + 3) / 4, "\(thinking)")
    }

    // src/server.ts:38, express.json({limit: '1mb'}): a larger JSON body is Express's 413 page,
    // before the token is looked at; ps-send says so before sending anything.
    @Test func aBodyOverOneMiBIsRefused() throws {
        let server = try GeminiBackendTests.start()
        defer { server.stop() }
        let big = #"{"content":""# + String(repeating: "a", count: 1 << 20) + #""}"#
        let refused = try server.request(
            "POST", "/api/v1/conversations/any/messages", headers: ["Content-Type": "application/json"], body: big)
        #expect(refused.status == 413)
        #expect(refused.text.contains("<pre>Payload Too Large</pre>"), "\(refused.text.prefix(300))")

        let sandbox = try GeminiBackendTests.sandbox(server)
        let sent = try sandbox.run("ps-send", ["--new-conversation"], stdin: String(repeating: "word ", count: 220_000))
        #expect(sent.status == 2, "\(sent.stderrText)")
        #expect(sent.stderrText.hasPrefix("ps-send: the message is 110001"), "\(sent.stderrText)")
        #expect(sent.stderrText.contains("bytes as JSON; the Gemini mobile API refuses a request over 1048576 bytes"),
                "\(sent.stderrText)")
        // Nothing was sent, and no conversation was made for it (a user holds at most 10).
        let posts = try server.requestLog().filter { ($0["method"] as? String) == "POST" }.compactMap { $0["path"] as? String }
        #expect(posts == ["/api/v1/conversations/any/messages"], "\(posts)")
    }
}
