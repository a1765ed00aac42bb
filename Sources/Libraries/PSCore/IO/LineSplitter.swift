#if canImport(Glibc)
import Glibc
#endif

/// Splits chunks into lines ending in LF (a CR before the LF is kept: callers decide). The final
/// line is delivered at `finish()` even without a newline. A line longer than the limits allow
/// throws RecordTooLong as soon as that is known: no more than the cap is ever held.
public struct LineSplitter {
    private var pending = PendingBytes()
    public private(set) var lineNumber = 0
    public let limits: InputLimits

    public init(limits: InputLimits = .current) { self.limits = limits }

    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws {
        guard let base = chunk.baseAddress else { return }
        // A splitter is a value: a copy made of it keeps its own start of a line.
        if !isKnownUniquelyReferenced(&pending) { pending = pending.copy() }
        var start = 0
        while let newline = ByteSearch.first(0x0A, in: chunk, from: start) {
            try checkLength(pending.count + newline - start)
            lineNumber += 1
            if pending.count == 0 {
                try body(UnsafeRawBufferPointer(start: base + start, count: newline - start), lineNumber)
            } else {
                pending.append(UnsafeRawBufferPointer(start: base + start, count: newline - start))
                try deliverLine(body)
            }
            start = newline + 1
        }
        if start < chunk.count {
            try checkLength(pending.count + chunk.count - start)
            pending.append(UnsafeRawBufferPointer(start: base + start, count: chunk.count - start))
        }
    }

    private mutating func deliverLine(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws {
        defer {
            // A long line's buffer is let go rather than kept for the (mostly short) lines after it.
            pending.removeAll(keepingCapacity: pending.capacity <= Self.keptCapacity)
        }
        try body(pending.bytes, lineNumber)
    }

    /// The most a buffer kept between lines holds.
    static let keptCapacity = 1 << 20

    private func checkLength(_ length: Int) throws {
        if length > limits.maxRecordBytes { throw RecordTooLong(.line, number: lineNumber + 1, limits: limits) }
    }

    /// Delivers an unterminated last line, if any. Returns whether there was one.
    @discardableResult
    public mutating func finish(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) rethrows -> Bool {
        guard pending.count > 0 else { return false }
        if !isKnownUniquelyReferenced(&pending) { pending = pending.copy() }
        lineNumber += 1
        defer { pending.removeAll(keepingCapacity: false) }
        try body(pending.bytes, lineNumber)
        return true
    }
}

/// The start of a line read so far, grown with realloc: the buffer of a long line is moved
/// (glibc remaps a large block) instead of copied into a new one while the old one is still
/// held, as an Array's growth does (the old and new buffers together take nearly twice the line).
final class PendingBytes {
    private var base: UnsafeMutableRawPointer?
    private(set) var count = 0
    private(set) var capacity = 0

    deinit { free(base) }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    func copy() -> PendingBytes {
        let copy = PendingBytes()
        copy.append(bytes)
        return copy
    }

    func append(_ more: UnsafeRawBufferPointer) {
        guard let source = more.baseAddress, !more.isEmpty else { return }
        if count + more.count > capacity {
            let grown = max(count + more.count, capacity * 2, 256)
            // Out of memory, as an Array would be.
            guard let moved = realloc(base, grown) else { fatalError("out of memory for a line of \(grown) bytes") }
            base = moved
            capacity = grown
        }
        memcpy(base! + count, source, more.count)
        count += more.count
    }

    func removeAll(keepingCapacity: Bool) {
        count = 0
        guard !keepingCapacity else { return }
        free(base)
        base = nil
        capacity = 0
    }
}
