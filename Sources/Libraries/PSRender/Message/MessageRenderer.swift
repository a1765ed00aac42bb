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
    /// An `error` ending's detail is the error the stream reported (ps-parts writes that error as
    /// a stream-error record before the message-end when streaming): shown as one, the same.
    public init(record: JSONObject) {
        self.init(role: record["role"]?.stringValue ?? "", ended: true)
        parts = record["parts"]?.arrayValue?.compactMap(\.objectValue) ?? []
        if let incomplete = record["incomplete"]?.objectValue {
            incompleteReason = incomplete["reason"]?.stringValue ?? "unknown"
            incompleteDetail = incomplete["detail"]?.stringValue
            if incompleteReason == "error", let incompleteDetail { errors = [incompleteDetail] }
        }
    }
}

/// A render of a message from line `first` on: the lines before it were in earlier renders, are
/// final, and are not made again.
public struct MessageLines {
    public var first: Int
    public var block: RenderedBlock
    /// Lines from the message's first up to here are frozen now: whole blocks and finished parts
    /// that nothing can change (on a live display, what can be written for good).
    public var settled: Int
}

/// Renders a message to lines, in any format, and says which lines are final while it streams.
///
/// Each render starts after the frozen lines: the header and the finished parts at the start,
/// then the settled lines of the part still growing, once an earlier render returned them as
/// stable. So the work per delta is bounded by the part that grows past its settled blocks, not
/// the message.
public struct MessageRenderer {
    public private(set) var options: RenderOptions
    /// Lines of parts that can no longer change, by part index (re-rendering long messages on
    /// every delta would otherwise grow quadratic).
    /// `skip`: the lines left out before the block (the caller had them).
    private var cache: [Int: (part: JSONObject, block: RenderedBlock, skip: Int)] = [:]
    /// Incremental renderers of the text parts still growing, by part index.
    private var streams: [Int: MarkdownStream] = [:]
    private var transcripts: [Int: TranscriptLines] = [:]

    /// Where the frozen lines end.
    private struct Frozen {
        /// The header and the first `parts` parts are frozen (none when nil: render from the top).
        var parts: Int? = nil
        /// Lines of the header and those parts, blank lines between them included.
        var lines = 0
        /// Whether the last of them that had lines was a compact line (no blank line follows).
        var previousCompact: Bool? = nil
        /// Then the first `inPart` lines of part `parts`, which start at line `partStart`.
        var inPart = 0
        var partStart = 0

        var first: Int { inPart > 0 ? partStart + inPart : lines }
    }
    private var frozen = Frozen()

    public init(options: RenderOptions) {
        self.options = options
    }

    /// Where the next render starts: the lines before it are frozen.
    public var frozenLines: Int { frozen.first }

    /// With `preview`, growing texts show their last line before its newline, for a live display;
    /// such a render changes nothing of what later renders do.
    ///
    /// With `sink` (for a message that has ended: every line is final), the lines go to it as they
    /// are made, a long text block by block, and the block returned has none: a long message is
    /// never held as lines. Such a render is the message's last: the next starts from the top.
    mutating func render(_ message: MessageState, preview: Bool = false, into sink: LineSink? = nil) -> MessageLines {
        if let parts = frozen.parts, parts > message.parts.count { frozen = Frozen() }
        let start = frozen
        var output = Composition(first: start.first, total: start.parts == nil ? 0 : start.first, sink: sink)
        if start.parts == nil { output.append(.final(header(role: message.role)), separator: []) }
        var previousCompact = start.previousCompact
        var next = start
        /// Every part before this one is frozen (or frozen by this render).
        var freezing = true

        for index in (start.parts ?? 0)..<message.parts.count {
            let part = message.parts[index]
            let finished = message.ended || PartKind.isFinished(part)
            let skip = index == start.parts ? start.inPart : 0
            // Compact lines stack without blank lines on a terminal; in markdown each is its own block.
            let compact = PartKind(part).isCompact && options.tools == .compact && options.format != .markdown
            if let sink {
                // Every part is finished: its lines go out as they come, after the blank line
                // that separates it from the lines before, once it has a line.
                let separator: [StyledLine] = skip > 0 || output.total == 0 ? [] : previousCompact == true && compact ? [] : [[]]
                let before = sink.count
                var separated = separator.isEmpty
                let partSink = LineSink { line in
                    if !separated {
                        sink.take(separator)
                        separated = true
                    }
                    sink.take(line)
                }
                partSink.take(partBlock(index, part, finished: true, skip: skip, preview: false, sink: partSink).lines)
                output.total += sink.count - before
                if partSink.count > 0 || skip > 0 { previousCompact = compact }
                continue
            }
            let block = partBlock(index, part, finished: finished, skip: skip, preview: preview)
            let before = skip > 0 ? (lines: start.lines, compact: start.previousCompact) : (lines: output.total, compact: previousCompact)
            let partStart: Int
            if skip > 0 {
                // Its first lines are frozen: it goes on where they end, blank line and all.
                partStart = start.partStart
                output.append(block, separator: [], continuing: true)
                previousCompact = compact
            } else {
                if !block.lines.isEmpty || block.pending {
                    output.append(block, separator: previousCompact == true && compact ? [] : [[]])
                    if !block.lines.isEmpty { previousCompact = compact }
                }
                partStart = output.total - block.lines.count
            }
            guard freezing else { continue }
            if finished && output.total <= output.stableTotal {
                next = Frozen(parts: index + 1, lines: output.total, previousCompact: previousCompact)
            } else {
                freezing = false
                if block.settled > 0 && partStart + block.settled <= output.stableTotal {
                    next = Frozen(parts: index, lines: before.lines, previousCompact: before.compact,
                                  inPart: block.settled, partStart: partStart)
                }
            }
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
                output.append(.final(notice), separator: index == 0 || options.format == .markdown ? [[]] : [])
            }
        }
        if sink != nil {
            thaw()
            cache = [:]
        } else if !preview {
            frozen = next
            // The growing part's frozen lines are the caller's now: its stream lets them go.
            if next.inPart > 0, let index = next.parts { streams[index]?.release(upTo: next.inPart) }
        }
        return MessageLines(first: start.first, block: output.block, settled: message.ended ? output.total : next.first)
    }

    /// Lets go of the frozen lines and of the streams' committed blocks: the next render starts
    /// from the top (the parts may differ from the texts that streamed).
    public mutating func thaw() {
        frozen = Frozen()
        streams = [:]
    }

    /// Renders what is not frozen yet to a new width (the terminal was resized).
    public mutating func resize(width: Int) {
        options.width = Terminal.clampedWidth(width)
        cache = cache.filter { $0.key < (frozen.parts ?? 0) }
    }

    /// Forgets cached parts from `index` on (the stream removed them).
    public mutating func forgetParts(from index: Int) {
        cache = cache.filter { $0.key < index }
        streams = streams.filter { $0.key < index }
        transcripts = transcripts.filter { $0.key < index }
        thawIfFrozen(index)
    }

    /// Forgets what was rendered of part `index` so far: it was replaced. When its text only grew
    /// (the final version of a streamed text), its frozen lines and its stream's committed blocks
    /// stay as they are.
    public mutating func forgetPart(_ index: Int, textOnlyGrew: Bool = false) {
        cache[index] = nil
        transcripts[index] = nil
        if !textOnlyGrew {
            streams[index] = nil
            thawIfFrozen(index)
        }
    }

    private mutating func thawIfFrozen(_ index: Int) {
        guard let parts = frozen.parts else { return }
        if index < parts || index == parts && frozen.inPart > 0 { frozen = Frozen() }
    }

    /// Part `index`'s lines, without the first `skip`.
    /// With `sink`, a finished text gives its lines to it as they are made (see TerminalPartRenderer).
    private mutating func partBlock(_ index: Int, _ part: JSONObject, finished: Bool, skip: Int, preview: Bool,
                                    sink: LineSink? = nil) -> RenderedBlock {
        if finished, let cached = cache[index], cached.skip <= skip, cached.part == part {
            return cached.block.dropping(skip - cached.skip)
        }
        var block: RenderedBlock
        /// The lines the part's renderer left out already.
        var left = 0
        switch options.format {
        case .markdown:
            block = TranscriptPartRenderer(options: options).part(part, finished: finished, skip: finished ? 0 : skip) {
                if let lines = transcripts[index] { return lines }
                let lines = TranscriptLines()
                transcripts[index] = lines
                return lines
            }
        case .ansi, .plain:
            // A text's stream leaves out the lines it is asked to; other parts have all theirs.
            switch PartKind(part) {
            case .text, .reasoning: left = skip
            default: left = 0
            }
            block = TerminalPartRenderer(options: options).part(part, finished: finished, skip: skip, preview: preview, sink: sink) { markdown in
                if let stream = streams[index] {
                    stream.renderer = markdown
                    return stream
                }
                let stream = MarkdownStream(renderer: markdown)
                streams[index] = stream
                return stream
            }
        }
        if finished {
            streams[index] = nil
            transcripts[index] = nil
            if sink == nil { cache[index] = (part, block, left) }
            return block.dropping(skip - left)
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

/// A message's lines put together part by part, from line `first` on.
private struct Composition {
    let first: Int
    /// Lines so far, the frozen ones before `first` included: a blank line goes only between lines.
    var total: Int
    var block = RenderedBlock()
    /// Where the lines go instead of `block`, when every line is final (see MessageRenderer.render).
    let sink: LineSink?

    init(first: Int, total: Int, sink: LineSink?) {
        self.first = first
        self.total = total
        self.sink = sink
    }

    /// The message's lines that are stable, from its first line.
    var stableTotal: Int { first + block.stable }

    /// Appends `part` after `separator`, as RenderedBlock.append does; `continuing` goes on with
    /// a part whose first lines were frozen (nothing goes between).
    mutating func append(_ part: RenderedBlock, separator: [StyledLine], continuing: Bool = false) {
        if let sink {
            if total > 0 && !part.lines.isEmpty && !continuing { sink.take(separator) }
            sink.take(part.lines)
            total += (total > 0 && !part.lines.isEmpty && !continuing ? separator.count : 0) + part.lines.count
            return
        }
        let wasFinal = block.isFinal
        if total > 0 && !part.lines.isEmpty && !continuing {
            block.lines += separator
            total += separator.count
        }
        let offset = block.lines.count
        block.lines += part.lines
        total += part.lines.count
        if wasFinal && part.stable > 0 { block.stable = offset + part.stable }
        if part.pending { block.pending = true }
    }
}
