import Foundation
import HTTPTypes
import Hummingbird
import PSCore
import Synchronization

/// `POST /api/ai/abort` (apps/web/src/app/api/ai/abort/route.ts): session only, at most 10 a
/// minute per user, then a name (messageId, then streamId, then conversationId) and
/// `{aborted, code, reason}` as abortStreamAnywhere reports it
/// (lib/ai/core/abort-stream-anywhere.ts:22-38, 70-200).
struct AbortRoute {
    let state: ServerState
    let limit = AbortRateLimit()

    func register(on router: Router<ServerContext>) {
        let auth = state.authenticator
        router.post("/api/ai/abort") { request, _ in
            _ = try auth.require(request, scope: .sessionOnly)
            // route.ts:33-48: checked before the body is read.
            if let retryAfter = limit.refusal() {
                var headers = HTTPFields()
                headers[.retryAfter] = String(retryAfter)
                throw Refusal(Reply.json(["error": "Too many requests. Please try again later."],
                                         status: .tooManyRequests, headers: headers))
            }
            var request = request
            // route.ts:50, 108-114: a body that is not JSON (or is null) is the catch-all 500.
            guard let body = try await request.jsonBodyIfValid(), body != .null else {
                throw Refusal(status: .internalServerError, error: "Failed to abort stream")
            }
            func field(_ name: String) -> String? {
                body[name]?.stringValue.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
            }
            let messageID = field("messageId"), streamID = field("streamId"), conversationID = field("conversationId")
            guard messageID != nil || streamID != nil || conversationID != nil else {
                throw Refusal.badRequest("streamId, messageId or conversationId is required")
            }
            return Reply.json(outcome(messageID: messageID, streamID: streamID, conversationID: conversationID))
        }
    }

    /// abortStreamAnywhere: a precise name (messageId, else streamId) that stops a stream here
    /// is the end of it (:95-99); then every stream of the conversation is stopped (:120-122);
    /// a stream any of the names reach that does not stop (it runs where the abort is not
    /// acted on: markAbortRequested, then awaitAbortSettled) leaves it `unconfirmed` (:127-201).
    private func outcome(messageID: String?, streamID: String?, conversationID: String?) -> JSON {
        let aborted: JSON = ["aborted": true, "code": "aborted", "reason": "Stream aborted by user request"]
        let precise = messageID.map { state.streams.find(streamID: nil, messageID: $0, conversationID: nil) }
            ?? streamID.map { state.streams.find(streamID: $0, messageID: nil, conversationID: nil) } ?? []
        if precise.contains(where: { $0.requestAbort() }) { return aborted }
        let inConversation = conversationID.map { state.streams.find(streamID: nil, messageID: nil, conversationID: $0) } ?? []
        let stopped = inConversation.filter { $0.requestAbort() }
        let marked = state.streams.find(streamID: streamID, messageID: messageID, conversationID: conversationID)
        if !marked.allSatisfy(\.isAborted) {
            return ["aborted": false, "code": "unconfirmed",
                    "reason": "The stream could not be confirmed stopped and may still be running"]
        }
        if !stopped.isEmpty { return aborted }
        // :162-177: nothing at all found (no stream stopped, none marked) leaves a pending
        // abort on the conversation, which the next send on it within 30 seconds consumes.
        if let conversationID, marked.isEmpty { state.pendingAborts.record(conversationID) }
        return ["aborted": false, "code": "not_found", "reason": "No in-flight stream on this conversation"]
    }
}

/// The pending-abort intents (apps/web/src/lib/ai/core/pending-abort-intents.ts): one per
/// conversation (this server has one user), recorded by an abort that finds nothing
/// (recordPendingAbort:51-74, an upsert) and consumed by the next send on the conversation
/// (consumePendingAbort:87-125, called by createStreamLifecycle, stream-lifecycle.ts:287):
/// one younger than PENDING_ABORT_INTENT_TTL_MS (:40, 30 s) pre-aborts that send, an older
/// one is dropped.
final class PendingAborts: Sendable {
    static let ttlMs: Int64 = 30_000
    private let recorded = Mutex<[String: Int64]>([:])

    func record(_ conversationID: String, nowMs: Int64 = Timestamp.now()) {
        recorded.withLock { $0[conversationID] = nowMs }
    }

    /// Whether the send starting now on the conversation is pre-aborted.
    func consume(_ conversationID: String, nowMs: Int64 = Timestamp.now()) -> Bool {
        guard let at = recorded.withLock({ $0.removeValue(forKey: conversationID) }) else { return false }
        return nowMs - at <= Self.ttlMs
    }
}

/// ABORT_RATE_LIMIT (route.ts:10-16: 10 a minute, progressiveDelay false) through
/// checkDistributedRateLimit (packages/lib/src/security/distributed-rate-limit.ts:533-550,
/// 574-650): minute buckets aligned to the clock; every attempt counts, refused ones too; the
/// count is this bucket's plus the last bucket's weighted by how much of this minute is still
/// to come; over 10 is refused with Retry-After: ceil(windowMs / 1000) = 60. This server has
/// one user, so one limiter is the per-user one.
final class AbortRateLimit: Sendable {
    static let maxAttempts = 10.0
    static let windowMs: Int64 = 60_000
    private let buckets = Mutex<(start: Int64, current: Int, previous: Int)>((Int64.min, 0, 0))

    /// nil when this attempt may go on, else the seconds to wait. `nowMs`: Unix time in ms.
    func refusal(nowMs: Int64 = Int64(Date().timeIntervalSince1970 * 1000)) -> Int? {
        buckets.withLock { buckets in
            let start = nowMs / Self.windowMs * Self.windowMs
            if start != buckets.start {
                // The bucket before this one survives only if it is the one just ended.
                let previous = buckets.start == start - Self.windowMs ? buckets.current : 0
                buckets = (start, 0, previous)
            }
            buckets.current += 1
            let weight = 1 - Double(min(Self.windowMs, max(0, nowMs - start))) / Double(Self.windowMs)
            let effective = Double(buckets.current) + Double(buckets.previous) * weight
            return effective <= Self.maxAttempts ? nil : Int(Self.windowMs / 1000)
        }
    }
}
