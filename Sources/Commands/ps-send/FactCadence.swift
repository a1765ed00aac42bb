import PSCore
import PSNet

/// `--extract-facts-every N`, as Lucid's app extracts facts every 10 messages: after a send,
/// when the conversation's message count (the user's and the replies) reaches or passes a
/// multiple of N, the server is asked to extract facts from it. A note on stderr says how many
/// it found; a failed extraction is a warning, never a failed send.
struct FactCadence {
    let every: Int
    let facts: FactsAPI

    /// How many messages one send adds: the user's and the reply.
    static let messagesPerTurn = 2

    func afterSend(conversationID: String) {
        do {
            let count = try facts.messageCount(conversationID: conversationID)
            let before = max(0, count - Self.messagesPerTurn)
            guard count / every > before / every else { return }
            let extraction = try facts.extractFacts(conversationID: conversationID, messageLimit: nil)
            Diagnostics.writeLine(
                "ps-send: \(count) messages: extracted \(extraction.extracted.count) facts, stored \(extraction.created.count) "
                    + "(ps-facts lists them)")
        } catch {
            Diagnostics.warning("the message was sent, but extracting facts failed: \((error as? ToolError)?.message ?? "\(error)")")
        }
    }
}
