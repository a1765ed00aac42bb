import PSCore
import PSNet
import PSRender
#if canImport(Glibc)
import Glibc
#endif

/// A send to an API that answers whole (one JSON document, Lucid): the answer is read, then
/// written as the UI message stream a streaming server would have sent (the adapter says how),
/// so that ps-sse, ps-parts and ps-render read it unchanged. Never retried, like every send.
enum WholeAnswerOutput {
    static func run(_ request: HTTPRequest, adapter: APIAdapter, target: SendTarget, printIDs: Bool, output: ReplyOutput) throws {
        let answer = try adapter.client.json(request)
        let whole = try adapter.streamRecords(fromAnswer: answer, target: target)
        if printIDs {
            if target.conversationID == nil, let id = whole.conversationID { Diagnostics.writeLine("conversation=\(id)") }
            if let id = whole.userMessageID { Diagnostics.writeLine("message=\(id)") }
        }
        do {
            try whole.streamBytes.withUnsafeBytes { try output.write($0) }
        } catch is ReplyOutputClosed {
            throw ExitRequest(.brokenPipe)
        }
    }
}
