/// A fast hash of bytes, eight at a time: for a rendered line's fingerprint and a code block's
/// cache key, where Hasher (SipHash) cost more than making the line, and a String key was
/// normalised again at each lookup. Seeded once per process, so no text can be made to collide
/// on purpose; not for anything secret.
enum ByteHash {
    private static let seed = UInt64.random(in: .min ... .max)

    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = seed ^ UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
        guard let base = bytes.baseAddress else { return finish(hash) }
        let count = bytes.count
        var index = 0
        while index + 8 <= count {
            hash = mix(hash ^ base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            index += 8
        }
        if index < count {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while index < count {
                tail |= UInt64(base.load(fromByteOffset: index, as: UInt8.self)) << shift
                shift += 8
                index += 1
            }
            hash = mix(hash ^ tail)
        }
        return finish(hash)
    }

    static func of(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { of(UnsafeRawBufferPointer($0)) }
    }

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        let product = value &* 0xBF58_476D_1CE4_E5B9
        return product ^ (product >> 31)
    }

    /// SplitMix64's finaliser: every bit of the result depends on every bit hashed.
    @inline(__always)
    private static func finish(_ value: UInt64) -> UInt64 {
        var value = value
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
