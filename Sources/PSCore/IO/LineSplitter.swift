#if canImport(Glibc)
import Glibc
#endif

/// Splits chunks into lines ending in LF (a CR before the LF is kept: callers decide). The final
/// line is delivered at `finish()` even without a newline.
public struct LineSplitter {
    private var pending: [UInt8] = []
    public private(set) var lineNumber = 0

    public init() {}

    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, Int) throws -> Void) rethrows {
        guard let base = chunk.baseAddress else { return }
        var start = 0
        while start < chunk.count, let found = memchr(base + start, 0x0A, chunk.count - start) {
            let newline = base.distance(to: UnsafeRawPointer(found))
            lineNumber += 1
            if pending.isEmpty {
                try body(UnsafeRawBufferPointer(start: base + start, count: newline - start), lineNumber)
            } else {
                pending.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: newline - start))
                try pending.withUnsafeBytes { try body($0, lineNumber) }
                pending.removeAll(keepingCapacity: true)
            }
            start = newline + 1
        }
        if start < chunk.count { pending.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: chunk.count - start)) }
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
