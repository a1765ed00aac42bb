/// Tests of eight bytes at once, loaded as one UInt64 (SWAR), for scans that look at most bytes
/// only to pass them by. `has` and `hasByteBelow` are the cheapest: each answer is exact as a
/// whole (the bits of the bytes after the first match may be wrong, never the answer).
/// `matching` and `below` cost a little more and give every byte's bit exactly: where the
/// matches are.
enum ByteWord {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080
    private static let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F

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

    /// The high bit of each byte of `word` that is `byte`, and no other bit: exact for every byte
    /// (no carry crosses a byte), so the lowest one found is where the first match is.
    @inline(__always)
    static func matching(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let value = word ^ (UInt64(byte) &* ones)
        return ~(((value & lows) &+ lows) | value) & highs
    }

    /// The high bit of each byte of `word` under `limit` (at most 0x80), and no other bit.
    @inline(__always)
    static func below(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        ~(((word & lows) &+ UInt64(0x80 - limit) &* ones) | word) & highs
    }

    /// The eight bytes at `pointer`, the first of them in the lowest bits (whatever the machine's
    /// byte order), so that a mask's trailing zero bits count the bytes before its first match.
    @inline(__always)
    static func load(_ pointer: UnsafeRawPointer) -> UInt64 {
        UInt64(littleEndian: pointer.loadUnaligned(as: UInt64.self))
    }
}
