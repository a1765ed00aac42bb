import PSCore

/// A message as it is known so far: from part records while it streams, or whole from a message
/// record.
public struct MessageState: Sendable {
    public var role: String
    public var parts: [JSONObject]
    /// The message is over: every part is final.
    public var ended: Bool
    /// Why the message is incomplete (`no-finish`, `error`, `abort`, `malformed`), if it is.
    public var incompleteReason: String?
    public var incompleteDetail: String?
    /// Errors the stream reported.
    public var errors: [String]

    public init(role: String = "assistant", parts: [JSONObject] = [], ended: Bool = false,
                incompleteReason: String? = nil, incompleteDetail: String? = nil, errors: [String] = []) {
        self.role = role
        self.parts = parts
        self.ended = ended
        self.incompleteReason = incompleteReason
        self.incompleteDetail = incompleteDetail
        self.errors = errors
    }

    /// A message record (`{"id","role","parts":[...]}`), with `incomplete` if ps-parts set it.
    public init(record: JSONObject) {
        self.init(role: record["role"]?.stringValue ?? "", ended: true)
        parts = record["parts"]?.arrayValue?.compactMap(\.objectValue) ?? []
        if let incomplete = record["incomplete"]?.objectValue {
            incompleteReason = incomplete["reason"]?.stringValue ?? "unknown"
            incompleteDetail = incomplete["detail"]?.stringValue
        }
    }
}

/// Renders a message to lines, in any format, and says which lines are final while it streams.
public struct MessageRenderer {
    public let options: RenderOptions
    /// Lines of parts that can no longer change, by part index (re-rendering long messages on
    /// every delta would otherwise grow quadratic).
    private var cache: [Int: (part: JSONObject, block: RenderedBlock)] = [:]
    /// Incremental renderers of the text parts still growing, by part index.
    private var streams: [Int: MarkdownStream] = [:]
    private var transcripts: [Int: TranscriptLines] = [:]

    public init(options: RenderOptions) {
        self.options = options
    }

    public mutating func render(_ message: MessageState) -> RenderedBlock {
        var result = RenderedBlock.final(header(role: message.role))
        var previousCompact: Bool?
        for (index, part) in message.parts.enumerated() {
            let finished = message.ended || PartKind.isFinished(part)
            let block = partBlock(index, part, finished: finished)
            guard !block.lines.isEmpty || block.pending else { continue }
            // Compact lines stack without blank lines on a terminal; in markdown each is its own block.
            let compact = PartKind(part).isCompact && options.tools == .compact && options.format != .markdown
            let separator: [StyledLine] = previousCompact == true && compact ? [] : [[]]
            result.append(block, separator: separator)
            if !block.lines.isEmpty { previousCompact = compact }
        }
        if message.ended {
            var notices = message.errors.map(streamError)
            if let reason = message.incompleteReason {
                // A stream error already shown above is not repeated as the notice's detail.
                let detail = message.incompleteDetail.flatMap { message.errors.contains($0) ? nil : $0 }
                notices.append(incompleteNotice(reason: reason, detail: detail))
            }
            // On a terminal the notices stack; in markdown each is its own quote.
            for (index, notice) in notices.enumerated() {
                let separator: [StyledLine] = index == 0 || options.format == .markdown ? [[]] : []
                result.append(.final(notice), separator: separator)
            }
        }
        return result
    }

    /// Forgets cached parts from `index` on (the stream removed them).
    public mutating func forgetParts(from index: Int) {
        cache = cache.filter { $0.key < index }
        streams = streams.filter { $0.key < index }
        transcripts = transcripts.filter { $0.key < index }
    }

    /// Forgets what was rendered of part `index` so far: it was replaced, not appended to.
    public mutating func forgetPart(_ index: Int) {
        cache[index] = nil
        streams[index] = nil
        transcripts[index] = nil
    }

    private mutating func partBlock(_ index: Int, _ part: JSONObject, finished: Bool) -> RenderedBlock {
        if finished, let cached = cache[index], cached.part == part { return cached.block }
        var block: RenderedBlock
        switch options.format {
        case .markdown:
            block = TranscriptPartRenderer(options: options).part(part, finished: finished) {
                if let lines = transcripts[index] { return lines }
                let lines = TranscriptLines()
                transcripts[index] = lines
                return lines
            }
        case .ansi, .plain:
            block = TerminalPartRenderer(options: options).part(part, finished: finished) { markdown in
                if let stream = streams[index] { return stream }
                let stream = MarkdownStream(renderer: markdown)
                streams[index] = stream
                return stream
            }
        }
        if finished {
            streams[index] = nil
            transcripts[index] = nil
            cache[index] = (part, block)
        } else {
            block.pending = true
            if case .tool = PartKind(part) { block.stable = 0 }
        }
        return block
    }

    private func header(role: String) -> [StyledLine] {
        options.format == .markdown
            ? TranscriptPartRenderer(options: options).header(role: role)
            : TerminalPartRenderer(options: options).header(role: role)
    }

    func streamError(_ text: String) -> [StyledLine] {
        options.format == .markdown
            ? TranscriptPartRenderer(options: options).streamError(text)
            : TerminalPartRenderer(options: options).streamError(text)
    }

    private func incompleteNotice(reason: String, detail: String?) -> [StyledLine] {
        options.format == .markdown
            ? TranscriptPartRenderer(options: options).incompleteNotice(reason: reason, detail: detail)
            : TerminalPartRenderer(options: options).incompleteNotice(reason: reason, detail: detail)
    }
}
