import PSCore
import PSSend
import PSNet
import PSPrompt
import PSRender

/// `--schema`: each reply is held back (CapturedReply), read as JSON and validated here,
/// whatever the server claims; an invalid one is sent back with what is wrong, in the same
/// conversation, up to `repairs` times. Then one reply is written, as a UI message stream
/// (see ps-ndjson(5)): its text is the valid value (compact JSON), so that `ps-render --format
/// text` prints just that; still invalid, the last answer's own text, and exit 3. Its
/// `messageMetadata.schema` says which, and after how many repairs.
struct SchemaTurns {
    let schema: JSONSchema
    let repairs: Int
    let secrets: SecretCheck

    /// The first message's text: the schema asked for in words after it, where the server
    /// takes none natively (`response_format`).
    func firstText(_ text: String, nativeSchema: Bool) throws -> String {
        nativeSchema ? text : text + "\n\n" + (try secrets.pass(SchemaAnswer.instruction(schema), from: "--schema"))
    }

    /// Sends `message` with `send` (the reply to a capture), and repairs until valid.
    func run(_ message: JSON, output: ReplyOutput, send: (JSON, ReplyOutput) throws -> Void) throws {
        var message = message
        for repaired in 0...repairs {
            let capture = CapturedReply()
            do {
                try send(message, capture)
            } catch {
                try? capture.release(to: output)  // what came is kept, as it came
                throw error
            }
            let answer = SchemaAnswer(text: capture.text, schema: schema)
            if answer.isValid || repaired == repairs {
                try write(capture, answer, repairs: repaired, to: output)
                if answer.isValid { return }
                let after = repaired == 0 ? "" : " after \(repaired) repair\(repaired == 1 ? "" : "s")"
                throw ToolError(.malformedInput, "the answer does not match the schema\(after): \(answer.firstError)")
            }
            Diagnostics.writeLine("ps-send: the answer does not match the schema (\(answer.firstError)); "
                + "sending it back (\(repaired + 1)/\(repairs))")
            message = UserMessage.make(text: try secrets.pass(answer.repairMessage(), from: "the repair message"))
        }
    }

    private func write(_ capture: CapturedReply, _ answer: SchemaAnswer, repairs: Int, to output: ReplyOutput) throws {
        var metadata = capture.reply?["metadata"]?.objectValue ?? JSONObject()
        var result = JSONObject([("valid", .bool(answer.isValid)), ("repairs", .integer(Int64(repairs)))])
        if !answer.isValid { result["errors"] = .array(answer.violations.map { .string($0.description) }) }
        metadata["schema"] = .object(result)
        let text = answer.isValid ? answer.value!.serialized() : capture.text
        let bytes = WholeAnswerStream.bytes(messageID: capture.reply?["id"]?.stringValue, text: text, metadata: .object(metadata))
        do {
            try bytes.withUnsafeBytes { try output.write($0) }
        } catch is ReplyOutputClosed {
            throw ExitRequest(.brokenPipe)
        }
    }
}

/// A reply's stream held back instead of written: rebuilt (ReplyCollector, any stream format)
/// for its text, and kept as it came, to be written if the send fails. At most one record's
/// worth (InputLimits), like any reply read whole.
final class CapturedReply: ReplyOutput {
    private let collector = ReplyCollector()
    private var bytes: [UInt8] = []
    private var finished = false

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        bytes.append(contentsOf: chunk)
        if bytes.count > InputLimits.current.maxRecordBytes {
            throw InputLimits.current.tooLong("the answer to check against --schema", status: .serverError)
        }
        try collector.feed(chunk)
    }

    func tick() {}

    func finish() throws {
        guard !finished else { return }
        finished = true
        collector.finish()
    }

    /// The reply as a UIMessage, once its stream ended.
    var reply: JSON? {
        try? finish()
        return collector.reply
    }

    /// The reply's text parts.
    var text: String {
        (reply?["parts"]?.arrayValue ?? []).filter { $0["type"]?.stringValue == "text" }
            .compactMap { $0["text"]?.stringValue }.joined()
    }

    /// Writes what came, unchanged, to the real output.
    func release(to output: ReplyOutput) throws {
        try bytes.withUnsafeBytes { try output.write($0) }
        bytes = []
    }
}
