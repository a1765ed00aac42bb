#if canImport(Glibc)
import Glibc
#endif

/// Splits chunks into lines ending in LF (a CR before the LF is kept: callers decide). The final
/// line is delivered at `finish()` even without a newline. A line longer than the limits allow
/// throws RecordTooLong as soon as that is known: no more than the cap is ever held.
public struct LineSplitter {
    private var pending: [UInt8] = []
    public private(set) var lineNumber = 0
    public let limits: InputLimits

    public init(limits: InputLimits = .current) { self.limits = limits }

    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws {
        guard let base = chunk.baseAddress else { return }
        var start = 0
        while start < chunk.count, let found = memchr(base + start, 0x0A, chunk.count - start) {
            let newline = base.distance(to: UnsafeRawPointer(found))
            try checkLength(pending.count + newline - start)
            lineNumber += 1
            if pending.isEmpty {
                try body(UnsafeRawBufferPointer(start: base + start, count: newline - start), lineNumber)
            } else {
                pending.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: newline - start))
                try pending.withUnsafeBytes { try body($0, lineNumber) }
                // A long line's buffer is let go rather than kept for the (mostly short) lines after it.
                pending.removeAll(keepingCapacity: pending.capacity <= Self.keptCapacity)
            }
            start = newline + 1
        }
        if start < chunk.count {
            try checkLength(pending.count + chunk.count - start)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: chunk.count - start))
        }
    }

    /// The most a buffer kept between lines holds.
    static let keptCapacity = 1 << 20

    private func checkLength(_ length: Int) throws {
        if length > limits.maxRecordBytes { throw RecordTooLong(.line, number: lineNumber + 1, limits: limits) }
    }

    /// Delivers an unterminated last line, if any. Returns whether there was one.
    @discardableResult
    public mutating func finish(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) rethrows -> Bool {
        guard !pending.isEmpty else { return false }
        lineNumber += 1
        try pending.withUnsafeBytes { try body($0, lineNumber) }
        pending.removeAll()
        return true
    }
}
