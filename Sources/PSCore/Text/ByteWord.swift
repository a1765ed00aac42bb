/// Tests of eight bytes at once, loaded as one UInt64 (SWAR), for scans that look at most bytes
/// only to pass them by. Each answer is exact as a whole: whether some byte of the word matches
/// (the bits of the bytes after the first match may be wrong, never the answer).
enum ByteWord {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether one of the word's bytes is `byte`.
    @inline(__always)
    static func has(_ word: UInt64, _ byte: UInt8) -> Bool {
        let value = word ^ (UInt64(byte) &* ones)
        return (value &- ones) & ~value & highs != 0
    }

    /// Whether one of the word's bytes is under `limit` (at most 0x80).
    @inline(__always)
    static func hasByteBelow(_ word: UInt64, _ limit: UInt8) -> Bool {
        (word &- UInt64(limit) &* ones) & ~word & highs != 0
    }
}
