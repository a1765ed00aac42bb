import PSCore
import PSNet
#if canImport(Glibc)
import Glibc
#endif

/// A send to an API that answers whole (one JSON document, Lucid): the answer is read, then
/// written as the UI message stream a streaming server would have sent (the adapter says how),
/// so that ps-sse, ps-parts and ps-render read it unchanged. Never retried, like every send.
enum WholeAnswerOutput {
    static func run(_ request: HTTPRequest, adapter: APIAdapter, target: SendTarget, printIDs: Bool) throws {
        let answer = try adapter.client.json(request)
        let whole = try adapter.streamRecords(fromAnswer: answer, target: target)
        if printIDs {
            if target.conversationID == nil, let id = whole.conversationID { Diagnostics.writeLine("conversation=\(id)") }
            if let id = whole.userMessageID { Diagnostics.writeLine("message=\(id)") }
        }
        let error = FileDescriptorOutput.writeAll(fd: 1, whole.streamBytes.withUnsafeBytes { TerminalGuardedOutput(fd: 1).filter($0) })
        if error == EPIPE { throw ExitRequest(.brokenPipe) }
        if error != 0 { throw ToolError(.failure, "cannot write output: \(String(cString: strerror(error)))") }
    }
}
