import PSCore

/// Follows ps-parts' part records and whole message records and writes the rendered text as it
/// becomes final: append-only, each line once, never a cursor movement. The bytes written for a
/// streamed message are those written for the same message given whole.
///
/// With a live region (a terminal), whole blocks are written as they settle and the block still
/// being written is drawn in the region below them, last line included, redrawn at each flush.
public final class RecordRenderer {
    public private(set) var options: RenderOptions
    /// Where the rendered bytes (UTF-8) go, in pieces.
    private let output: (UnsafeRawBufferPointer) throws -> Void
    /// The live display, when there is one: then `output` must go through it too.
    public var live: LiveRegion?
    /// What the live region shows: the lines after the written ones.
    private var liveLines: [StyledLine] = []

    private var message: MessageState?
    private var renderer: MessageRenderer
    /// The lines of the current message already written, as fingerprints of their bytes: what a
    /// render is compared with when a record may have changed them, without holding the lines.
    private var written: [UInt32] = []
    private var messagesWritten = 0
    private var dirty = false
    /// The text part that deltas are growing, out of its part while they come: deltas are
    /// appended in place, not through the part's JSON object (put back by settleGrowingText).
    private var growingText: (index: Int, text: String)?
    /// Delta bytes (valid UTF-8, not yet made terminal-safe) waiting to join `growingText`: a
    /// String is made and checked for a few KB of deltas, not for each (foldGrowingTail).
    private var growingTail: [UInt8] = []
    /// A tail this long joins the text at once. Not more: a tail as long as a whole read's deltas
    /// raised a long streamed message's peak memory.
    private static let growingTailLimit = 4 << 10
    /// A record other than a delta came: the lines written may no longer be those rendered. A
    /// delta only appends, and the lines written are the stable ones, which appending keeps.
    private var mayRewrite = false

    /// A whole message record waits here for the next flush or record: it is rendered after the
    /// reader has let its line go (the line of a long message is as long as its text).
    private var waitingMessage: MessageState?

    /// Lines the last flush rendered (to test that the work per delta stays bounded).
    private(set) var lastRenderedLines = 0

    /// Some message was incomplete (exit status 10).
    public private(set) var sawIncomplete = false

    public init(options: RenderOptions, output: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.options = options
        self.output = output
        renderer = MessageRenderer(options: options)
    }

    /// The same, for an output that takes text (a live region): each piece is whole lines.
    public convenience init(options: RenderOptions, text: @escaping (String) throws -> Void) {
        self.init(options: options) { try text(String(decoding: $0, as: UTF8.self)) }
    }

    /// A record the renderer cannot use; the caller reports it with the line number.
    public struct RecordError: Error, Equatable {
        public let message: String
    }

    /// Takes one record. Output happens at `flush()`, so a burst of records is rendered once.
    public func handle(_ record: JSON) throws {
        try showWaitingMessage()
        settleGrowingText()
        // Every string of a record is made terminal-safe once, here, before any format sees it.
        guard let object = record.terminalSafe.objectValue else { throw RecordError(message: "not a JSON object") }
        if object["role"] != nil, let parts = object["parts"] {
            guard parts.arrayValue != nil else { throw RecordError(message: "message record whose parts is not an array") }
            try endMessage(reason: "no-finish", detail: "a new message began before message-end")
            waitingMessage = MessageState(record: object)
            return
        }
        guard let type = object["type"]?.stringValue else {
            if object["event"] != nil && object["data"] != nil {
                throw RecordError(message: "an event record from ps-sse: pipe it through ps-parts first")
            }
            if object["title"] != nil { throw RecordError(message: "a conversation record, not a message") }
            throw RecordError(message: "neither a part record (type) nor a message record (role, parts)")
        }
        switch type {
        case "message-start":
            try endMessage(reason: "no-finish", detail: "a new message began before message-end")
            message = MessageState(role: object["role"]?.stringValue ?? "assistant")
            dirty = true
        case "part-start", "part-update":
            guard let part = object["part"]?.objectValue else { throw RecordError(message: "\(type) without a part object") }
            let index = try partIndex(object, allowingEnd: true)
            mayRewrite = true
            if index == current.parts.count {
                current.parts.append(part)
            } else {
                let grew = Self.textOnlyGrew(from: current.parts[index], to: part)
                current.parts[index] = part
                renderer.forgetPart(index, textOnlyGrew: grew)
            }
        case "part-delta":
            let index = try partIndex(object, allowingEnd: false)
            guard let delta = object["delta"]?.stringValue else { throw RecordError(message: "part-delta without a delta string") }
            try append(delta, toPart: index)
        case "parts-reset":
            let index = try partIndex(object, allowingEnd: true)
            mayRewrite = true
            current.parts.removeSubrange(index...)
            renderer.forgetParts(from: index)
        case "stream-error":
            let text = object["errorText"]?.stringValue ?? "unknown error"
            if message == nil {
                try write(lines: streamErrorLines(text))
            } else {
                current.errors.append(text)
            }
        case "message-end":
            if message == nil { message = MessageState() }
            mayRewrite = true
            if let final = object["message"]?.objectValue, final["parts"]?.arrayValue != nil {
                let role = current.role
                var state = MessageState(record: final)
                if state.role.isEmpty { state.role = role }
                state.errors = current.errors
                // A part that differs from what streamed: render it all again, and compare.
                if state.parts != current.parts { renderer.thaw() }
                message = state
            }
            current.ended = true
            if object["status"]?.stringValue == "incomplete" || current.incompleteReason != nil {
                current.incompleteReason = current.incompleteReason ?? object["reason"]?.stringValue ?? "unknown"
                current.incompleteDetail = current.incompleteDetail ?? object["detail"]?.stringValue
            }
            try flush()
            if current.incompleteReason != nil { sawIncomplete = true }
            if options.showUsage, options.format != .markdown, let footer = UsageFooter.line(usage(of: object)) {
                try emit([footer])
            }
            message = nil
            written = []
            liveLines = []
            renderer = MessageRenderer(options: options)
        default:
            // metadata, and record types of later format versions: nothing to show.
            break
        }
    }

    /// Takes a part-delta record read without a JSON tree (PartDeltaRecord), its delta as UTF-8
    /// bytes: the same as `handle` given that record.
    public func handlePartDelta(index: Int, utf8 delta: UnsafeRawBufferPointer) throws {
        if growingText?.index == index {
            growingTail.append(contentsOf: delta)
            dirty = true
            if growingTail.count >= Self.growingTailLimit { foldGrowingTail() }
            return
        }
        let text = TerminalSafeText.sanitize(String(decoding: delta, as: UTF8.self))
        try append(text, toPart: try partIndex(Int64(index), allowingEnd: false))
    }

    /// The waiting delta bytes, made terminal-safe, appended to the growing text. Each scalar is
    /// made safe on its own, and every delta is whole scalars, so this is the text the deltas
    /// made safe one by one would give.
    private func foldGrowingTail() {
        guard !growingTail.isEmpty, growingText != nil else { return }
        let tail = TerminalSafeText.sanitize(String(decoding: growingTail, as: UTF8.self))
        growingTail.removeAll(keepingCapacity: true)
        growingText!.text += tail
    }

    private func append(_ delta: String, toPart index: Int) throws {
        settleGrowingText()
        guard var text = current.parts[index]["text"]?.stringValue else {
            throw RecordError(message: "part-delta for part \(index), which has no text")
        }
        // Let go of the part's copy first, so the text grows in place instead of being copied.
        message!.parts[index]["text"] = .null
        text += delta
        growingText = (index, text)
        dirty = true
    }

    /// Puts the text that deltas grow back into its part, before anything reads the message.
    private func settleGrowingText() {
        foldGrowingTail()
        guard let growing = growingText else { return }
        growingText = nil
        message?.parts[growing.index]["text"] = .string(growing.text)
    }

    /// Writes whatever became final since the last call, and redraws the live region.
    public func flush() throws {
        try showWaitingMessage()
        settleGrowingText()
        if dirty, let message {
            dirty = false
            try writeFinal(message)
            // An ended message is written whole: nothing is left for the region.
            if live != nil { liveLines = message.ended ? [] : previewLines(message) }
        }
        try live?.show(liveLines)
    }

    /// Renders to a new width from here on (the terminal was resized): what is written stays.
    public func resize(width: Int) {
        options.width = Terminal.clampedWidth(width)
        renderer.resize(width: width)
        dirty = message != nil
    }

    private func writeFinal(_ message: MessageState) throws {
        // Cannot happen (frozen lines were stable, so written), but never skip a line unseen.
        if renderer.frozenLines > written.count { renderer.thaw() }
        if message.ended { return try writeEnded(message) }
        let rendered = renderer.render(message)
        let first = rendered.first
        let block = rendered.block
        lastRenderedLines = block.lines.count
        let total = first + block.lines.count
        // On a live display only settled lines are written: the block still growing is shown whole
        // in the region below, where a resize can wrap it again.
        let stable = live != nil ? rendered.settled : first + block.stable
        var start = written.count
        let checkWritten = mayRewrite
        mayRewrite = false
        if start > 0 && (start > total || checkWritten && !sameAsWritten(block.lines, from: first)) {
            // Only when the stream removed parts we had already shown (a restarted step): what is
            // on the screen stays, and the message continues from where it differs.
            var common = first
            while common < min(start, total) && written[common] == fingerprint(block.lines[common - first]) { common += 1 }
            try restarted(at: common)
            start = common
        }
        guard stable > start else { return }
        try writeLines(block.lines[(start - first)..<(stable - first)])
    }

    /// The last render of a message (every line final): its lines are written as they are made,
    /// never all held; those already written are passed over, or compared when a record may
    /// have changed them.
    private func writeEnded(_ message: MessageState) throws {
        let checkWritten = mayRewrite
        mayRewrite = false
        var index = renderer.frozenLines
        // Lines written of the message. Those written now are counted, not remembered: the message
        // ends with this render, and nothing compares them again.
        var count = written.count
        var pending: [UInt8] = []
        var failure: Error?
        let sink = LineSink { [self] line in
            guard failure == nil else { return }
            do {
                if index < count {
                    guard checkWritten && written[index] != fingerprint(line) else {
                        index += 1
                        return
                    }
                    // (Nothing is pending here: lines are new only once index has passed count.)
                    try restarted(at: index)
                    count = index
                }
                if count == 0 { try startMessage() }
                LineEncoder.append(line, ansi: options.ansi, to: &pending)
                count += 1
                index += 1
                // The lines of a long message go out in pieces, not as one more copy of all of them.
                if pending.count >= Self.outputPiece {
                    try writeOut(pending)
                    pending.removeAll(keepingCapacity: true)
                }
            } catch {
                failure = error
            }
        }
        let rendered = renderer.render(message, into: sink)
        if let failure { throw failure }
        lastRenderedLines = sink.count
        if !pending.isEmpty { try writeOut(pending) }
        if rendered.settled < count { try restarted(at: rendered.settled) }
    }

    /// The lines from `first` on are those written, as far as both go.
    private func sameAsWritten(_ lines: [StyledLine], from first: Int) -> Bool {
        guard written.count - first <= lines.count else { return false }
        return zip(written[first...], lines).allSatisfy { $0 == fingerprint($1) }
    }

    private func fingerprint(_ line: StyledLine) -> UInt32 {
        var scratch: [UInt8] = []
        return LineEncoder.append(line, ansi: options.ansi, to: &scratch, fingerprint: true)
    }

    /// What was written from line `common` on is not what the message has now (the stream removed
    /// parts already shown): what is on the screen stays, and the message continues from there.
    private func restarted(at common: Int) throws {
        try emit([[Span("↺ the server restarted this step; continued below", TextStyle(dim: options.ansi))]])
        written.removeSubrange(min(common, written.count)...)
    }

    /// Before a message's first line: a blank line after the message before it.
    private func startMessage() throws {
        if messagesWritten > 0 { try writeOut(Self.newline) }
        messagesWritten += 1
    }

    private func writeLines(_ lines: ArraySlice<StyledLine>) throws {
        if written.isEmpty { try startMessage() }
        var text: [UInt8] = []
        for line in lines {
            written.append(LineEncoder.append(line, ansi: options.ansi, to: &text, fingerprint: true))
            if text.count >= Self.outputPiece {
                try writeOut(text)
                text.removeAll(keepingCapacity: true)
            }
        }
        if !text.isEmpty { try writeOut(text) }
    }

    /// The lines after the written ones as they look now, the last one before its newline.
    private func previewLines(_ message: MessageState) -> [StyledLine] {
        let preview = renderer.render(message, preview: true)
        return Array(preview.block.lines.dropFirst(max(0, written.count - preview.first)))
    }

    /// Whether a part-update only lengthened a text part (its final version after the deltas).
    private static func textOnlyGrew(from old: JSONObject, to new: JSONObject) -> Bool {
        guard old["type"] == new["type"], let before = old["text"]?.stringValue, let after = new["text"]?.stringValue else {
            return false
        }
        return after.utf8.starts(with: before.utf8)
    }

    /// End of input: a message still open was cut off.
    public func finish() throws {
        try showWaitingMessage()
        try endMessage(reason: "no-finish", detail: "the input ended before message-end")
    }

    private var current: MessageState {
        get { message! }
        set { message = newValue; dirty = true }
    }

    private func partIndex(_ object: JSONObject, allowingEnd: Bool) throws -> Int {
        try partIndex(object["index"]?.intValue, allowingEnd: allowingEnd)
    }

    private func partIndex(_ raw: Int64?, allowingEnd: Bool) throws -> Int {
        if message == nil {
            message = MessageState()
            dirty = true
        }
        guard let raw, raw >= 0 else { throw RecordError(message: "no valid index") }
        let limit = current.parts.count + (allowingEnd ? 1 : 0)
        guard raw < limit else {
            throw RecordError(message: "part index \(raw) but the message has \(current.parts.count) parts")
        }
        return Int(raw)
    }

    /// The usage in a message-end record's message metadata.
    private func usage(of record: JSONObject) -> JSON? {
        record["message"]?["metadata"]?["usage"]
    }

    private func endMessage(reason: String, detail: String) throws {
        guard message != nil else { return }
        try handle(.object(JSONObject([
            ("type", "message-end"), ("status", "incomplete"), ("reason", .string(reason)), ("detail", .string(detail)),
        ])))
    }

    private func showWaitingMessage() throws {
        guard let state = waitingMessage else { return }
        waitingMessage = nil
        try show(state)
    }

    private func show(_ state: MessageState) throws {
        message = state
        dirty = true
        try flush()
        if state.incompleteReason != nil { sawIncomplete = true }
        message = nil
        written = []
        liveLines = []
        renderer = MessageRenderer(options: options)
    }

    private func streamErrorLines(_ text: String) -> [StyledLine] {
        renderer.streamError(text)
    }

    private func write(lines: [StyledLine]) throws {
        if messagesWritten > 0 { try writeOut(Self.newline) }
        messagesWritten += 1
        try emit(lines)
    }

    private func emit(_ lines: [StyledLine]) throws {
        var text: [UInt8] = []
        for line in lines { LineEncoder.append(line, ansi: options.ansi, to: &text) }
        try writeOut(text)
    }

    /// Writes encoded lines.
    private func writeOut(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try output($0) }
    }

    private static let newline: [UInt8] = [0x0A]

    private static let outputPiece = 64 * 1024
}
