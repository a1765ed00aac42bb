import PSCore

/// One piece of an assistant reply, before it is cut into stream chunks.
enum ReplySegment: Sendable {
    case reasoning(String)
    case text(String)
    case tool(ToolCall)
}

/// A tool call the "model" makes, with the result the server's tool gives back: none (.null)
/// for a client-side tool, whose call the turn leaves open (AskUser).
struct ToolCall: Sendable {
    let name: String
    let callID: String
    let input: JSON
    let output: JSON
}

/// Chooses what the assistant answers. The reply depends only on the user's words
/// (case-insensitive keywords, see the contract), so tests know what to expect. A caller's
/// system instructions, where a route takes them, steer it with the same keywords. A request
/// for JSON that matches a schema gets that JSON alone (SchemaReply).
enum ReplyScript {
    static func reply(to question: String, instructions: String = "", schema: JSON? = nil, callID: String) -> [ReplySegment] {
        if let json = SchemaReply.answer(to: question, schema: schema) { return [.text(json)] }
        let lowered = (instructions + "\n" + question).lowercased()
        var segments: [ReplySegment] = []
        var sections: [String] = []
        if lowered.contains("think") || lowered.contains("reason") {
            segments.append(.reasoning(reasoning(about: question)))
        }
        if lowered.contains("tool") {
            segments.append(.tool(readPageCall(id: callID)))
            sections.append(projectNotesSummary)
        }
        if lowered.contains("table") { sections.append(planTable) }
        if lowered.contains("code") { sections.append(exportCode) }
        if sections.isEmpty { sections.append(overview(quoting: question)) }
        segments.append(.text(sections.joined(separator: "\n\n")))
        return segments
    }

    /// The user's words as a markdown block quote (never longer than a few lines).
    static func quote(_ question: String) -> String {
        var text = question.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count > 240 { text = String(text.prefix(240)) + "…" }
        if text.isEmpty { text = "(an empty message)" }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { "> " + $0 }.joined(separator: "\n")
    }

    static func reasoning(about question: String) -> String {
        """
        The user asks: "\(question.trimmingCharacters(in: .whitespacesAndNewlines).prefix(120))". \
        First I should work out what they already know from the workspace, then weigh the options. \
        Moving a date affects the people who depend on it, so the answer should name the risks, \
        the owners and what to check before deciding. A short structured answer fits best.
        """
    }

    static func overview(quoting question: String) -> String {
        """
        ## About your question

        \(quote(question))

        Here is how I would approach it in your workspace:

        1. **Collect the context.** Start from the pages in *Demo Drive* that mention the topic.
        2. **Summarise what is known.** Keep decisions and open questions apart.
        3. **Agree on next steps**, each with an owner and a date.

        ### Things to keep in mind

        - Pages inherit permissions from their parent folder.
        - AI agents only see the pages you can see.
        - Links between pages keep working after a page moves.

        See the [PageSpace documentation](https://docs.pagespace.ai/) for details, or ask me to read a page.
        """
    }

    static let planTable = """
        ### Plans compared

        | Plan | AI calls per day | Pro model | Storage |
        |------|-----------------:|:---------:|---------|
        | Free | 20 | – | 500 MB |
        | Pro | unlimited | 100 per day | 2 GB |
        | Business | unlimited | unlimited | 50 GB |

        *Figures from the pricing page; check it before you rely on them.*
        """

    static let exportCode = """
        ### Exporting a conversation

        This Swift function walks the history backwards, one page at a time:

        ```swift
        func exportAll(conversation id: String) async throws -> [Message] {
            var cursor: String? = nil
            var all: [Message] = []
            repeat {
                let page = try await client.messages(id, cursor: cursor, direction: .before)
                all.insert(contentsOf: page.messages, at: 0)
                cursor = page.pagination.nextCursor
            } while cursor != nil
            return all
        }
        ```

        Each page is oldest first, so pages are *prepended* while walking back.
        """

    static let projectNotesSummary = """
        I read **Project Notes** in *Demo Drive*. In short:

        - The launch is planned for **15 January 2026**.
        - Demo User owns the release checklist.
        - Two open questions remain: pricing for teams, and the migration guide.

        Want me to draft the migration guide as a new page?
        """

    /// The current server's control calls around a reply, which its chat never shows: every
    /// turn ends with the `finish` tool (lib/ai/tools/finish-tool.ts; stopWhen hasToolCall(finish),
    /// global-chat-turn.ts:1342, page-chat-turn.ts:1831), and the Global assistant first looks
    /// its tools up with `tool_search` (global-chat-turn.ts:1008).
    /// A turn that ends on a question (AskUser) has no finish call.
    static func withControlCalls(_ segments: [ReplySegment], global: Bool, finish: Bool = true) -> [ReplySegment] {
        var result = segments
        if global {
            result.insert(.tool(ToolCall(
                name: "tool_search", callID: Identifiers.random(prefix: "call_", bytes: 8), input: ["query": "read page"],
                output: ["tools": ["read_page"]])), at: 0)
        }
        guard finish else { return result }
        result.append(.tool(ToolCall(
            name: "finish", callID: Identifiers.random(prefix: "call_", bytes: 8), input: [:],
            output: ["done": true, "reason": "Task completed"])))
        return result
    }

    static func readPageCall(id: String) -> ToolCall {
        ToolCall(
            name: "read_page",
            callID: id,
            input: ["pageId": "page_doc_demo"],
            output: [
                "success": true,
                "title": "Project Notes",
                "type": "DOCUMENT",
                "content": "# Project Notes\n\n- Launch: 2026-01-15\n- Owner: Demo User\n- Open: team pricing, migration guide\n",
            ])
    }

    /// The parts a history endpoint returns for a finished reply (no step-start, no states on text).
    static func historyParts(_ segments: [ReplySegment]) -> [JSON] {
        segments.map { segment in
            switch segment {
            case .reasoning(let text): return ["type": "reasoning", "text": .string(text)]
            case .text(let text): return ["type": "text", "text": .string(text)]
            case .tool(let call):
                return [
                    "type": .string("tool-" + call.name), "toolCallId": .string(call.callID),
                    "state": "output-available", "input": call.input, "output": call.output,
                ]
            }
        }
    }
}
