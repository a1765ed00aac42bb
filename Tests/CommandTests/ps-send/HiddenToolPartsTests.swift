import Foundation
import Testing
import TestSupport

/// Every reply of today's server ends with a call of the `finish` tool, and the Global
/// assistant's begin with `tool_search` (global-chat-turn.ts:1008, 1342; page-chat-turn.ts:1831).
/// PageSpace's chat never shows them (useGroupedParts.ts:94-107, tool-significance.ts:47,
/// tool-call-dispatch.ts:64-75): neither does ps-render.
@Suite struct HiddenToolPartsTests {
    @Test func theTwinSendsTheControlCallsAndPsRenderHidesThem() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)

        let global = try sandbox.run("ps-send", ["read the tool notes"])
        #expect(global.status == 0, "\(global.stderrText)")
        #expect(global.stdoutText.contains(#""toolName":"finish""#))
        #expect(global.stdoutText.contains(#""toolName":"tool_search""#))
        let agent = try sandbox.run("ps-send", ["--page", "page_agent_demo", "hello"])
        #expect(agent.status == 0, "\(agent.stderrText)")
        #expect(agent.stdoutText.contains(#""toolName":"finish""#))
        #expect(!agent.stdoutText.contains(#""toolName":"tool_search""#))

        let rendered = try sandbox.shell("ps-send 'read the tool notes' | ps-sse | ps-parts | ps-render --format plain", env: ["COLUMNS": "100"])
        #expect(rendered.status == 0, "\(rendered.stderrText)")
        #expect(rendered.stdoutText.contains("read_page"))
        #expect(!rendered.stdoutText.contains("finish"))
        #expect(!rendered.stdoutText.contains("tool_search"))
    }

    @Test func psRenderHidesFinishAndToolSearchAlsoThroughExecuteTool() throws {
        let message = #"{"id":"a","role":"assistant","parts":["#
            + #"{"type":"tool-tool_search","toolCallId":"s","state":"output-available","input":{"query":"pages"},"output":{}},"#
            + #"{"type":"tool-execute_tool","toolCallId":"e","state":"output-available","input":"{\"tool_name\":\"tool_search\",\"parameters\":{}}","output":{}},"#
            + #"{"type":"text","text":"one"},"#
            + #"{"type":"tool-read_page","toolCallId":"r","state":"output-available","input":{"pageId":"p"},"output":{}},"#
            + #"{"type":"tool-finish","toolCallId":"f","state":"output-available","input":{},"output":{"done":true}}]}"#
        for format in ["plain", "markdown"] {
            let result = try Run.command("ps-render", ["--format", format], stdin: Data((message + "\n").utf8),
                                         environment: ["COLUMNS": "80"])
            #expect(result.status == 0)
            #expect(result.stdoutText.contains("one"))
            #expect(result.stdoutText.contains("read_page"))
            #expect(!result.stdoutText.contains("finish"), "\(format): \(result.stdoutText)")
            #expect(!result.stdoutText.contains("tool_search"), "\(format): \(result.stdoutText)")
            #expect(!result.stdoutText.contains("execute_tool"), "\(format): \(result.stdoutText)")
        }
    }
}
