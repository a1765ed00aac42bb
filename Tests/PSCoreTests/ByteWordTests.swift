import Testing
@testable import PSCore

/// The exact masks are checked against each byte on its own, on random words and on words made of
/// the bytes around each limit, where a carry or borrow would show.
@Suite struct ByteWordTests {
    func bytes(_ word: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
    func mask(_ flags: [Bool]) -> UInt64 {
        flags.enumerated().reduce(0) { $0 | ($1.element ? UInt64(0x80) << (8 * $1.offset) : 0) }
    }

    @Test func masksMarkExactlyTheBytesThatMatch() {
        var random = SystemRandomNumberGenerator()
        let edges: [UInt8] = [0x00, 0x01, 0x09, 0x0A, 0x1F, 0x20, 0x21, 0x7E, 0x7F, 0x80, 0x81, 0xC2, 0xE2, 0xFE, 0xFF]
        var words: [UInt64] = (0..<20_000).map { _ in random.next() }
        words += (0..<20_000).map { _ in
            (0..<8).reduce(UInt64(0)) { word, index in word | UInt64(edges.randomElement(using: &random)!) << (8 * index) }
        }
        for word in words {
            let each = bytes(word)
            for byte in [0x0A, 0x09, 0x7F, 0xC2, 0xE2, 0x00, 0xFF] as [UInt8] {
                #expect(ByteWord.matching(word, byte) == mask(each.map { $0 == byte }))
                #expect(ByteWord.has(word, byte) == each.contains(byte))
            }
            for limit in [0x01, 0x20, 0x21, 0x80] as [UInt8] {
                #expect(ByteWord.below(word, limit) == mask(each.map { $0 < limit }))
                #expect(ByteWord.hasByteBelow(word, limit) == each.contains { $0 < limit })
            }
        }
    }

    @Test func theFirstByteLoadsLowest() {
        let bytes: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let word = bytes.withUnsafeBytes { ByteWord.load($0.baseAddress!) }
        #expect(word == 0x0807_0605_0403_0201)
        #expect(ByteWord.matching(word, 3).trailingZeroBitCount / 8 == 2)
    }
}
