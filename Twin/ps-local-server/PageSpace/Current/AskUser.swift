import PSCore

/// The current server's `ask_user` tool (apps/web/src/lib/ai/tools/ask-user-tools.ts): a
/// client-side tool with no execute, so a turn that calls it stops there (stopWhen
/// hasToolCall(ask_user), global-chat-turn.ts:1342, page-chat-turn.ts:1831) with the call
/// left open (input-available). The client answers by sending the assistant message back
/// with the part's output; the server merges it into the stored message
/// (lib/ai/core/ask-user-resume.ts) and the next turn goes on from there.
enum AskUser {
    static let partType = "tool-ask_user"
    /// ask-user-resume.ts:18.
    static let dismissedReason = "User replied in chat instead of selecting an option."

    /// A message with these words makes the twin's assistant ask before it answers.
    static func asks(_ text: String) -> Bool { text.lowercased().contains("ask me") }

    /// The turn that asks: a line of text, then the ask_user call, without output, and no
    /// finish tool (the turn ends on the question).
    static func question(callID: String, global: Bool) -> [ReplySegment] {
        let input: JSON = ["questions": [[
            "header": "Scope",
            "question": "Which part of the workspace should I look at?",
            "options": [
                ["label": "Demo Drive", "description": "Only the pages in Demo Drive"],
                ["label": "Everything", "description": "Every drive you can see"],
            ],
        ]]]
        let call = ToolCall(name: "ask_user", callID: callID, input: input, output: .null)
        return ReplyScript.withControlCalls([.text("Before I start, one question."), .tool(call)], global: global, finish: false)
    }

    /// The ask_user outputs of a trailing assistant message sent back (extractClientAskUserResults,
    /// ask-user-resume.ts:37-49): only its toolCallId and output are taken.
    static func results(in message: JSON) -> [(callID: String, output: JSON)] {
        guard message["role"]?.stringValue == "assistant" else { return [] }
        return (message["parts"]?.arrayValue ?? []).compactMap { part in
            guard part["type"]?.stringValue == partType, part["state"]?.stringValue == "output-available",
                  let id = part["toolCallId"]?.stringValue, let output = part["output"] else { return nil }
            return (id, output)
        }
    }

    /// askUserOutputSchema (ask-user-tools.ts:41-56): 1-4 answers, each with a header (at
    /// most 24), a question (500) and a selectedLabel (60) or otherText (2000); or a dismissal.
    static func isValid(_ output: JSON) -> Bool {
        if output["dismissed"]?.boolValue == true { return (output["reason"]?.stringValue?.count ?? 501) <= 500 }
        guard let answers = output["answers"]?.arrayValue, (1...4).contains(answers.count) else { return false }
        return answers.allSatisfy { answer in
            guard let header = answer["header"]?.stringValue, header.count <= 24,
                  let question = answer["question"]?.stringValue, question.count <= 500 else { return false }
            let label = answer["selectedLabel"], other = answer["otherText"]
            if let label, (label.stringValue?.count ?? 61) > 60 { return false }
            if let other, (other.stringValue?.count ?? 2001) > 2000 { return false }
            return label != nil || other != nil
        }
    }

    /// mergeResultsIntoParts (ask-user-resume.ts:57-84): each still pending (input-available)
    /// ask_user part of the stored message `messageID` with a valid result gets it as its
    /// output; the message is stored again when one did. Returns the outputs merged.
    @discardableResult
    static func merge(_ results: [(callID: String, output: JSON)], into messageID: String?, conversationID: String,
                      store: ConversationStore) -> [JSON] {
        guard !results.isEmpty, let conversation = store.conversation(conversationID) else { return [] }
        let stored = messageID.flatMap { id in conversation.position(of: id).map { conversation.messages[$0] } }
            ?? conversation.messages.last { $0.role == "assistant" }
        guard let stored, stored.role == "assistant" else { return [] }
        var merged: [JSON] = []
        let parts = stored.parts.map { part -> JSON in
            guard part["type"]?.stringValue == partType, part["state"]?.stringValue == "input-available",
                  let result = results.first(where: { $0.callID == part["toolCallId"]?.stringValue }),
                  isValid(result.output), case .object(var object) = part else { return part }
            object["state"] = "output-available"
            object["output"] = result.output
            merged.append(result.output)
            return .object(object)
        }
        guard !merged.isEmpty else { return [] }
        _ = store.append(StoredMessage(id: stored.id, role: stored.role, parts: parts, createdAt: stored.createdAt), to: conversationID)
        return merged
    }

    /// dismissPendingAskUser (ask-user-resume.ts:147-166): a typed message instead of an
    /// answer closes the pending questions of the conversation's last assistant message.
    static func dismissPending(in conversationID: String, store: ConversationStore) {
        guard let last = store.conversation(conversationID)?.messages.last(where: { $0.role == "assistant" }) else { return }
        let pending = last.parts.compactMap { part in
            part["type"]?.stringValue == partType && part["state"]?.stringValue == "input-available"
                ? part["toolCallId"]?.stringValue : nil
        }
        let dismissal: JSON = ["dismissed": true, "reason": .string(dismissedReason)]
        merge(pending.map { ($0, dismissal) }, into: last.id, conversationID: conversationID, store: store)
    }

    /// What the assistant says once answered: it names the answers, so a reader sees they arrived.
    static func continuation(_ outputs: [JSON]) -> String {
        let answers = outputs.flatMap { $0["answers"]?.arrayValue ?? [] }
            .compactMap { $0["selectedLabel"]?.stringValue ?? $0["otherText"]?.stringValue }
        guard !answers.isEmpty else { return "I have no answer to my question, so I go on without one." }
        return "Thanks. You answered: " + answers.map { "\"\($0)\"" }.joined(separator: ", ") + ". Here is what I found there."
    }
}
