#if canImport(Glibc)
import Glibc
#endif

/// An incremental parser of `text/event-stream` bodies, exactly as the WHATWG HTML standard
/// interprets them ("event stream interpretation", section 9.2.6).
///
/// It works on bytes: the stream's only syntax is ASCII (CR, LF, `:` and space), and a UTF-8
/// decoder never folds an ASCII byte into a multi-byte sequence, so splitting the bytes first and
/// decoding each piece with U+FFFD replacement gives what the standard's decode-then-parse gives.
/// Chunks may end anywhere (inside a line, between a CR and its LF, inside the BOM). Memory is
/// bounded by the largest event, not the stream: a line no rule reads (a comment, an unknown
/// field) is dropped as it arrives, never held, however long it is. A line the parser reads, or
/// an event's data across its `data:` lines, longer than `limits` allows throws RecordTooLong
/// as soon as that is known.
public struct SSEParser {
    /// One dispatched event. `data` borrows the parser's buffer: it is valid only inside the
    /// callback that received it; copy it (or use `dataString`) to keep it.
    public struct Event {
        /// The `event:` field, or "message" when the block had none (or an empty one).
        public let type: String
        /// The data lines joined with LF, without the final LF.
        public let data: UnsafeRawBufferPointer
        /// The last event ID set by the stream so far ("" if none): it persists across events.
        public let lastEventId: String
        /// The reconnection time, only when this event's own block set a valid `retry:`.
        public let retry: Int64?
        /// The line the event's block began on (1-based).
        public let line: Int
        /// The data decoded as UTF-8, with U+FFFD for invalid bytes.
        public var dataString: String { String(decoding: data, as: UTF8.self) }
    }

    /// What was left at the end of the stream: an event whose blank line never came.
    public struct UnterminatedEvent: Equatable, Sendable {
        /// The line the unfinished block began on (1-based).
        public let line: Int
    }

    private static let lf: UInt8 = 0x0A, cr: UInt8 = 0x0D, colon: UInt8 = 0x3A, space: UInt8 = 0x20
    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// How many bytes of a leading BOM have been seen; nil once the stream start is settled.
    private var bomMatched: Int? = 0
    /// A line that began in an earlier chunk, grown as LineSplitter's is: a long line's buffer is
    /// moved, not copied, so a line at the cap holds the cap once.
    private var partialLine = PendingBytes()
    /// What that line is known to be, once its first bytes have come.
    private var partialKind = PartialKind.unknown

    private enum PartialKind {
        /// Not known yet: its field name may still be one the parser reads.
        case unknown
        /// A field the parser reads (data, event, id, retry): held whole.
        case kept
        /// A comment: its bytes are dropped as they come.
        case comment
        /// A field no rule reads: dropped too, but it still makes its block non-empty.
        case ignoredField
    }

    /// The longest field name the parser reads ("retry").
    private static let longestField = 5
    /// The previous chunk ended with CR: an LF at the start of the next one belongs to it.
    private var skipLeadingLF = false

    private var dataBuffer: [UInt8] = []
    private var eventTypeBuffer: [UInt8] = []
    private var lastEventIdBuffer: [UInt8] = []
    private var lastEventIdString = ""
    private var lastEventIdChanged = false
    private var blockRetry: Int64?
    /// The first line of the current block (0 when the block is empty so far).
    private var blockStartLine = 0

    /// Lines completed so far.
    public private(set) var lineNumber = 0

    public let limits: InputLimits

    public init(limits: InputLimits = .current) { self.limits = limits }

    /// Parses a chunk, calling `onEvent` for each event whose blank line it completes.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ onEvent: (Event) throws -> Void) throws {
        // A parser is a value: a copy made of it keeps its own start of a line.
        if !isKnownUniquelyReferenced(&partialLine) { partialLine = partialLine.copy() }
        var index = 0
        let count = chunk.count
        if let matched = bomMatched {
            index = try skipByteOrderMark(chunk, alreadyMatched: matched)
        }
        if skipLeadingLF && index < count {
            skipLeadingLF = false
            if chunk[index] == Self.lf { index += 1 }
        }
        var lineStart = index
        while index < count {
            let byte = chunk[index]
            if byte != Self.lf && byte != Self.cr {
                index += 1
                continue
            }
            if partialKind == .comment || partialKind == .ignoredField {
                endDroppedLine()
            } else if partialLine.count == 0 {
                try processLine(UnsafeRawBufferPointer(rebasing: chunk[lineStart..<index]), onEvent)
            } else {
                if partialKind == .kept { try checkLine(partialLine.count + index - lineStart) }
                partialLine.append(UnsafeRawBufferPointer(rebasing: chunk[lineStart..<index]))
                // A reference of its own while it is processed: processLine mutates self.
                let line = partialLine
                defer { line.removeAll(keepingCapacity: line.capacity <= LineSplitter.keptCapacity) }
                try processLine(line.bytes, onEvent)
                partialKind = .unknown
            }
            index += 1
            if byte == Self.cr {
                if index < count {
                    if chunk[index] == Self.lf { index += 1 }
                } else {
                    skipLeadingLF = true
                }
            }
            lineStart = index
        }
        if lineStart < count { try hold(UnsafeRawBufferPointer(rebasing: chunk[lineStart..<count])) }
    }

    /// Keeps the start of an unfinished line, unless it is one no rule reads.
    private mutating func hold(_ bytes: UnsafeRawBufferPointer) throws {
        switch partialKind {
        case .comment, .ignoredField: return
        case .kept:
            try checkLine(partialLine.count + bytes.count)
            partialLine.append(bytes)
            return
        case .unknown:
            try checkLine(partialLine.count + bytes.count)
            partialLine.append(bytes)
        }
        let held = partialLine.bytes
        if held.first == Self.colon {
            partialKind = .comment
        } else if let colon = held.prefix(Self.longestField + 1).firstIndex(of: Self.colon) {
            let field = held[..<colon]
            let known = ["data", "event", "id", "retry"].contains { field.elementsEqual($0.utf8) }
            partialKind = known ? .kept : .ignoredField
        } else if held.count > Self.longestField {
            partialKind = .ignoredField
        } else {
            return
        }
        if partialKind != .kept { partialLine.removeAll(keepingCapacity: false) }
    }

    /// A line of `length` bytes may not pass the cap (an event's data is checked as it grows).
    private func checkLine(_ length: Int) throws {
        if length > limits.maxRecordBytes { throw RecordTooLong(.line, number: lineNumber + 1, limits: limits) }
    }

    /// The end of a line that was dropped as it came: it counts, and a field opens a block.
    private mutating func endDroppedLine() {
        lineNumber += 1
        if partialKind == .ignoredField && blockStartLine == 0 { blockStartLine = lineNumber }
        partialKind = .unknown
    }

    /// Ends the stream. An event without its blank line is dropped, as the standard says, and
    /// reported so that the caller can tell a truncated stream from a finished one. The parser is
    /// then ready for a new stream.
    public mutating func finish() -> UnterminatedEvent? {
        // The start of a BOM that never finished is the held line's start.
        let first = bomMatched.flatMap { $0 > 0 ? Self.bom[0] : nil } ?? partialLine.bytes.first
        let pendingLineIsField = partialKind == .ignoredField || (first.map { $0 != Self.colon } ?? false)
        var result: UnterminatedEvent?
        if !dataBuffer.isEmpty || pendingLineIsField {
            result = UnterminatedEvent(line: blockStartLine > 0 ? blockStartLine : lineNumber + 1)
        }
        self = SSEParser(limits: limits)
        return result
    }

    /// Consumes the part of a leading BOM in `chunk`; returns where the stream's text starts.
    private mutating func skipByteOrderMark(_ chunk: UnsafeRawBufferPointer, alreadyMatched: Int) throws -> Int {
        var matched = alreadyMatched
        var index = 0
        while index < chunk.count && matched < 3 {
            guard chunk[index] == Self.bom[matched] else {
                // Not a BOM after all: the bytes matched so far are text (never a line end).
                try Self.bom[0..<matched].withUnsafeBytes { try hold($0) }
                bomMatched = nil
                return index
            }
            matched += 1
            index += 1
        }
        bomMatched = matched == 3 ? nil : matched
        return index
    }

    private mutating func processLine(_ line: UnsafeRawBufferPointer, _ onEvent: (Event) throws -> Void) throws {
        lineNumber += 1
        guard let first = line.first else {
            try dispatch(onEvent)
            return
        }
        if first == Self.colon { return }  // A comment.
        if blockStartLine == 0 { blockStartLine = lineNumber }

        var field = line
        var value = UnsafeRawBufferPointer(start: nil, count: 0)
        if let colon = line.firstIndex(of: Self.colon) {
            field = UnsafeRawBufferPointer(rebasing: line[..<colon])
            var valueStart = colon + 1
            if valueStart < line.count && line[valueStart] == Self.space { valueStart += 1 }
            value = UnsafeRawBufferPointer(rebasing: line[valueStart...])
        }

        // A comment or unknown field is never held (even one this long), so only these count.
        if line.count > limits.maxRecordBytes,
            Self.is(field, "data") || Self.is(field, "event") || Self.is(field, "id") || Self.is(field, "retry") {
            throw RecordTooLong(.line, number: lineNumber, limits: limits)
        }
        if Self.is(field, "data") {
            if dataBuffer.count + value.count + 1 > limits.maxRecordBytes {
                throw RecordTooLong(.event, number: blockStartLine, limits: limits)
            }
            dataBuffer.append(contentsOf: value)
            dataBuffer.append(Self.lf)
        } else if Self.is(field, "event") {
            eventTypeBuffer.removeAll(keepingCapacity: true)
            eventTypeBuffer.append(contentsOf: value)
        } else if Self.is(field, "id") {
            if !value.contains(0) {
                lastEventIdBuffer.removeAll(keepingCapacity: true)
                lastEventIdBuffer.append(contentsOf: value)
                lastEventIdChanged = true
            }
        } else if Self.is(field, "retry") {
            if let milliseconds = Self.parseRetry(value) { blockRetry = milliseconds }
        }
        // Any other field is ignored.
    }

    /// Whether a field name is `name` (byte for byte: field names are case-sensitive).
    @inline(__always)
    private static func `is`(_ field: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
        guard field.count == name.utf8CodeUnitCount, let base = field.baseAddress else { return false }
        return memcmp(base, name.utf8Start, field.count) == 0
    }

    /// A `retry:` value counts only when it is ASCII digits (and fits in 64 bits).
    private static func parseRetry(_ value: UnsafeRawBufferPointer) -> Int64? {
        guard !value.isEmpty else { return nil }
        var result: Int64 = 0
        for byte in value {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (times10, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte - 0x30))
            if overflow1 || overflow2 { return nil }
            result = sum
        }
        return result
    }

    /// At a blank line: dispatch when there is data, and start a new block either way.
    private mutating func dispatch(_ onEvent: (Event) throws -> Void) rethrows {
        defer {
            dataBuffer.removeAll(keepingCapacity: true)
            eventTypeBuffer.removeAll(keepingCapacity: true)
            blockRetry = nil
            blockStartLine = 0
        }
        guard !dataBuffer.isEmpty else { return }
        dataBuffer.removeLast()  // The LF after the last data line.
        if lastEventIdChanged {
            lastEventIdString = String(decoding: lastEventIdBuffer, as: UTF8.self)
            lastEventIdChanged = false
        }
        let type = eventTypeBuffer.isEmpty ? "message" : String(decoding: eventTypeBuffer, as: UTF8.self)
        let lastEventId = lastEventIdString
        let retry = blockRetry
        let line = blockStartLine
        try dataBuffer.withUnsafeBytes { data in
            try onEvent(Event(type: type, data: data, lastEventId: lastEventId, retry: retry, line: line))
        }
    }
}
