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
        return ["aborted": false, "code": "not_found", "reason": "No in-flight stream on this conversation"]
    }
}

/// ABORT_RATE_LIMIT (route.ts:10-16): 10 a minute per user; past that, refused until the
/// minute is over (Retry-After: the seconds left, as the Postgres limiter clamps its block
/// to the bucket's end, packages/lib/src/security/distributed-rate-limit.ts:552-566).
final class AbortRateLimit: Sendable {
    static let maxAttempts = 10
    static let window: TimeInterval = 60
    private let attempts = Mutex<(start: Date, count: Int)>((Date.distantPast, 0))

    /// nil when this attempt may go on, else the seconds to wait.
    func refusal(now: Date = Date()) -> Int? {
        attempts.withLock { attempts in
            if now.timeIntervalSince(attempts.start) >= Self.window { attempts = (now, 0) }
            attempts.count += 1
            guard attempts.count > Self.maxAttempts else { return nil }
            return max(1, Int((Self.window - now.timeIntervalSince(attempts.start)).rounded(.up)))
        }
    }
}
