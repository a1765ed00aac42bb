import Foundation
import PSCore

/// Fills the store at start-up: the global conversation with `count` alternating user and
/// assistant messages (replies made by ReplyScript, so some have reasoning and tool calls),
/// and one short agent conversation. Ids `msg_00000001`… sort in creation order.
enum HistorySeeder {
    /// Questions cycled through; their keywords pick the kind of reply (see ReplyScript).
    static let questions = [
        "What should the agenda for planning meeting %d cover?",
        "Can you think through the risks of moving the launch (request %d)?",
        "Make a table comparing the plans for team %d.",
        "Use the read_page tool on Project Notes and summarise it (request %d).",
        "Show me code to export the history, version %d.",
        "How do page permissions work for folder %d?",
    ]

    static let spacing: Int64 = 45 * Timestamp.second

    /// Returns the next free message number. `perTimestamp` consecutive messages share one
    /// createdAt (as a burst of rows written in the same tick does on a real server).
    static func seed(_ store: ConversationStore, globalMessages count: Int, perTimestamp: Int = 1) -> Int {
        var global = Conversation(
            id: SeedData.globalConversationID, title: "General Workspace Chat", kind: .global,
            createdAt: Timestamp.seedEpoch)
        global.reserve(count)
        var number = 1
        for index in 0..<count {
            global.append(message(number: number, index: index, total: count, perTimestamp: perTimestamp))
            number += 1
        }
        store.insert(global)

        var agent = Conversation(
            id: SeedData.agentConversationID, title: "Launch research",
            kind: .agent(pageID: SeedData.agentPageID), createdAt: Timestamp.seedEpoch + 3600 * Timestamp.second)
        for index in 0..<4 {
            var seeded = message(number: number, index: index + 4, total: 4)
            seeded = StoredMessage(
                id: seeded.id, role: seeded.role, parts: seeded.parts, createdAt: Timestamp.seedEpoch + 3600 * Timestamp.second + Int64(index) * 60 * Timestamp.second)
            agent.append(seeded)
            number += 1
        }
        store.insert(agent)
        return number
    }

    /// Message `index` of the global history: even indexes ask, odd ones answer the question before.
    static func message(number: Int, index: Int, total: Int, perTimestamp: Int = 1) -> StoredMessage {
        let id = Identifiers.messageID(number)
        let createdAt = Timestamp.seedEpoch + Int64(index / max(1, perTimestamp)) * spacing
        let exchange = index / 2
        let question = questions[exchange % questions.count].replacingOccurrences(of: "%d", with: String(exchange + 1))
        if index % 2 == 0 {
            return StoredMessage(id: id, role: "user", parts: [["type": "text", "text": .string(question)]], createdAt: createdAt)
        }
        let segments = ReplyScript.reply(to: question, callID: "call_seed_\(exchange + 1)")
        var reply = StoredMessage(id: id, role: "assistant", parts: ReplyScript.historyParts(segments), createdAt: createdAt)
        // An old server wrote some of the older replies as content envelopes (it had no
        // reasoning column, so only replies without reasoning are stored that way).
        let hasReasoning = segments.contains { if case .reasoning = $0 { return true } else { return false } }
        reply.storedAsEnvelope = index < total / 2 && exchange % 3 == 0 && !hasReasoning
        return reply
    }
}
