import PSCore

/// Renders a raw event stream (Server-Sent Events, or the AI SDK v4 data stream) in the same
/// process, exactly as `ps-sse | ps-parts | ps-render` would: the same translator, message stream
/// and part records, passed on as the same NDJSON lines to the same renderer. Each stage that
/// fails stops as that command would, and `finish()` throws the status the pipeline would end
/// with (the last failing stage's): 3 for malformed input, 10 for an incomplete reply.
public final class EventStreamRenderer {
    public let renderer: RecordRenderer
    private var translator: StreamTranslator
    private let events: EventRecordOutput
    private var eventLines = LineSplitter()
    private var partLines = LineSplitter()
    private var messages: MessageStream!
    private var parts: [UInt8] = []
    /// The first failure of each stage (ps-sse, ps-parts, ps-render); a failed stage takes no more.
    private var failures: [ToolError?] = [nil, nil, nil]
    private static let name = "the reply"

    public init(renderer: RecordRenderer) {
        self.renderer = renderer
        events = EventRecordOutput(raw: false, writer: RecordWriter(fd: -1))
        translator = StreamTranslator(format: .auto, output: events, inputName: Self.name)
        let records = PartRecords(final: false)
        messages = MessageStream { [unowned self] event in
            records.write(event, to: &self.parts)
            if case .ended(_, .incomplete(let reason, let detail, _)) = event, reason != .malformed {
                self.fail(1, ToolError(.incomplete, "the message is incomplete: \(detail)"))
            }
        }
    }

    /// Takes more of the stream; what it completes is rendered (drawn at the renderer's `flush`).
    public func feed(_ chunk: UnsafeRawBufferPointer) throws {
        guard failures[0] == nil else { return }
        do {
            try translator.feed(chunk)
        } catch let error as ToolError {
            fail(0, error)
        }
        try passEvents(atEnd: false)
    }

    /// The end of the stream: the rest is rendered and written; throws the pipeline's status.
    public func finish() throws {
        if failures[0] == nil {
            do { try translator.finish() } catch let error as ToolError { fail(0, error) }
        }
        try passEvents(atEnd: true)
        try renderer.flush()
        try renderer.finish()
        if failures[2] == nil && renderer.sawIncomplete { fail(2, ToolError(.incomplete, "the reply is incomplete")) }
        if let last = failures.last(where: { $0 != nil }) ?? nil { throw last }
    }

    private func fail(_ stage: Int, _ error: ToolError) {
        if failures[stage] == nil { failures[stage] = error }
    }

    private func passEvents(atEnd: Bool) throws {
        let lines = events.writer.takePending()
        if failures[1] == nil {
            do {
                try lines.withUnsafeBytes { bytes in
                    try eventLines.feed(bytes) { try messages.consumeLine($0, number: $1) }
                }
                if atEnd {
                    try eventLines.finish { try messages.consumeLine($0, number: $1) }
                    try messages.finish()
                }
            } catch let error as MalformedRecord {
                fail(1, ToolError(.malformedInput, "\(Self.name): \(error)"))
            }
        }
        try passParts()
    }

    private func passParts() throws {
        guard !parts.isEmpty else { return }
        let lines = parts
        parts.removeAll(keepingCapacity: true)
        guard failures[2] == nil else { return }
        do {
            try lines.withUnsafeBytes { bytes in
                try partLines.feed(bytes) { line, _ in try renderer.handle(try JSON.parse(line)) }
            }
        } catch let error as RecordRenderer.RecordError {
            fail(2, ToolError(.malformedInput, "\(Self.name): \(error.message)"))
        } catch let error as JSONParseError {
            fail(2, ToolError(.malformedInput, "\(Self.name): not JSON: \(error.message)"))
        }
    }
}
