/// Whether bytes are well-formed UTF-8 (no overlong forms, no surrogates, nothing above
/// U+10FFFF).
public enum UTF8Check {
    public static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            let first = base.load(fromByteOffset: index, as: UInt8.self)
            if first < 0x80 {
                index += 1
                continue
            }
            guard let length = sequenceLength(base, at: index, count: count) else { return false }
            index += length
        }
        return true
    }

    /// The length of the well-formed sequence of 2 to 4 bytes at `index` (its first byte is not
    /// ASCII), nil when it is not one.
    static func sequenceLength(_ base: UnsafeRawPointer, at index: Int, count: Int) -> Int? {
        let first = base.load(fromByteOffset: index, as: UInt8.self)
        let length: Int
        var scalar: UInt32
        switch first {
        case 0xC2...0xDF: length = 2; scalar = UInt32(first & 0x1F)
        case 0xE0...0xEF: length = 3; scalar = UInt32(first & 0x0F)
        case 0xF0...0xF4: length = 4; scalar = UInt32(first & 0x07)
        default: return nil
        }
        guard count - index >= length else { return nil }
        for offset in 1..<length {
            let byte = base.load(fromByteOffset: index + offset, as: UInt8.self)
            guard byte & 0xC0 == 0x80 else { return nil }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return nil }
        return length
    }
}
