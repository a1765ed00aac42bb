/// Raw bytes on their way to stdout. When it is a terminal they pass `TerminalSafeText` (control
/// characters, C1 and bidi controls become visible stand-ins), chunk by chunk: a UTF-8 sequence
/// cut between chunks waits for its end. In a pipe or a file the bytes are unchanged.
public final class TerminalGuardedOutput {
    public let guarding: Bool
    private var pending: [UInt8] = []

    public init(fd: Int32 = 1) { guarding = Terminal.isTerminal(fd) }
    public init(guarding: Bool) { self.guarding = guarding }

    /// What to write for `chunk`: itself in a pipe; on a terminal its safe form, up to the last
    /// whole UTF-8 sequence (the rest comes with the next chunk, or `finish()`).
    public func filter(_ chunk: UnsafeRawBufferPointer) -> [UInt8] {
        guard guarding else { return Array(chunk) }
        pending.append(contentsOf: chunk)
        let whole = Self.wholePrefix(pending)
        let text = String(decoding: pending[..<whole], as: UTF8.self)
        pending.removeFirst(whole)
        return Array(TerminalSafeText.sanitize(text).utf8)
    }

    /// What is left at the end: an unfinished sequence, shown as U+FFFD.
    public func finish() -> [UInt8] {
        defer { pending = [] }
        return pending.isEmpty ? [] : Array(TerminalSafeText.sanitize(String(decoding: pending, as: UTF8.self)).utf8)
    }

    /// The length of `bytes` without a UTF-8 sequence cut at its end.
    static func wholePrefix(_ bytes: [UInt8]) -> Int {
        var start = bytes.count
        // Back over at most 3 continuation bytes to the lead byte of the last sequence.
        while start > 0 && bytes.count - start < 4 {
            start -= 1
            if bytes[start] & 0xC0 != 0x80 { break }
        }
        guard start < bytes.count else { return bytes.count }
        let lead = bytes[start]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return bytes.count - start < length ? start : bytes.count
    }
}
