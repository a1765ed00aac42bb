/// The value of a number token. Integers within 64 bits are `.integer` and other numbers `.real`,
/// as long as that is the number: an integer beyond 64 bits, or a number beyond Double's range
/// (overflowing to infinity, or a non-zero one underflowing to zero), is kept as `.number` with
/// its literal text, so that it passes through byte for byte instead of being refused or changed.
enum JSONNumber {
    static func value(_ literal: UnsafeBufferPointer<UInt8>, isInteger: Bool) -> JSON {
        if isInteger, let integer = integer(literal) { return .integer(integer) }
        let text = String(decoding: literal, as: UTF8.self)
        if !isInteger, let real = Double(text), real.isFinite, real != 0 || !hasNonZeroDigit(literal) {
            return .real(real)
        }
        return .number(text)
    }

    /// The integer, when it fits in 64 bits (an optional minus, then digits).
    private static func integer(_ literal: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = literal.first == UInt8(ascii: "-")
        let digits = negative ? literal.count - 1 : literal.count
        guard digits <= 19 else { return nil }
        var magnitude: UInt64 = 0
        for byte in literal[(negative ? 1 : 0)...] { magnitude = magnitude * 10 + UInt64(byte - 0x30) }
        if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// Whether the digits before any exponent are not all zero.
    private static func hasNonZeroDigit(_ literal: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in literal {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return false }
            if byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9") { return true }
        }
        return false
    }
}
