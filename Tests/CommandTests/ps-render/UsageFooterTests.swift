import Foundation
import Testing
import TestSupport

/// The token count of a reply: a dim footer from ps-render where the stream gave usage, in the
/// forms of the AI SDK's finish metadata and OpenAI's usage chunk; --usage show|hide.
@Suite struct UsageFooterTests {
    static let aiSDK = """
        data: {"type":"start","messageId":"m1"}

        data: {"type":"text-start","id":"t"}

        data: {"type":"text-delta","id":"t","delta":"Hello"}

        data: {"type":"text-end","id":"t"}

        data: {"type":"finish","finishReason":"stop","messageMetadata":{"usage":{"inputTokens":1234,"outputTokens":567}}}

        data: [DONE]


        """

    static let openAI = """
        data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"}}]}

        data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}

        data: {"id":"c","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":3456}}

        data: [DONE]


        """

    func render(_ stream: String, _ flags: String) throws -> ProcessResult {
        try Run.shell("set -o pipefail; ps-sse | ps-parts | ps-render \(flags)", stdin: Data(stream.utf8))
    }

    @Test func theFooterShowsTheTokenCountWhenAsked() throws {
        let shown = try render(Self.aiSDK, "--usage show")
        #expect(shown.status == 0, "\(shown.stderrText)")
        #expect(shown.stdoutText.hasSuffix("Hello\n1,234 in · 567 out\n"), "\(shown.stdoutText)")
        let ansi = try render(Self.aiSDK, "--usage show --format ansi")
        #expect(ansi.stdoutText.contains("\u{1B}[2m1,234 in · 567 out"), "\(ansi.stdoutText)")
        let openAI = try render(Self.openAI, "--usage show")
        #expect(openAI.stdoutText.hasSuffix("12 in · 3,456 out\n"), "\(openAI.stdoutText)")
    }

    @Test func hiddenWhenAskedAndByDefaultInAPipe() throws {
        for flags in ["--usage hide", ""] {
            let result = try render(Self.aiSDK, flags)
            #expect(result.status == 0)
            #expect(!result.stdoutText.contains(" in · "), "\(flags): \(result.stdoutText)")
        }
    }

    @Test func theFinalRecordCarriesTheNumbers() throws {
        let result = try Run.shell("ps-sse | ps-parts --final", stdin: Data(Self.aiSDK.utf8))
        let record = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let usage = (record["metadata"] as? [String: Any])?["usage"] as? [String: Any]
        #expect(usage?["inputTokens"] as? Int == 1234 && usage?["outputTokens"] as? Int == 567)
    }
}
