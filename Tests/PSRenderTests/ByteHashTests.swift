import Testing
@testable import PSRender

/// The hash behind line fingerprints and the code-block cache: the same bytes give the same
/// hash, and a change of any one bit, at any offset of short and long inputs, changes it.
@Suite struct ByteHashTests {
    func hash(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { ByteHash.of($0) } }

    @Test func everyBitCounts() {
        var seen: Set<UInt64> = []
        for length in 0...70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let original = hash(bytes)
            #expect(hash(bytes) == original)
            #expect(seen.insert(original).inserted, "length \(length)")
            for offset in 0..<length {
                for bit in 0..<8 {
                    var changed = bytes
                    changed[offset] ^= UInt8(1 << bit)
                    #expect(hash(changed) != original, "length \(length), byte \(offset), bit \(bit)")
                }
            }
        }
        // A zero byte added is a change too (the length is hashed).
        #expect(hash([1, 2, 3]) != hash([1, 2, 3, 0]))
        #expect(ByteHash.of("café") == hash(Array("café".utf8)))
    }
}
