import PSCore
import Testing

@Suite struct TerminalGuardedOutputTests {
    static let hostile = Array(": \u{1B}]52;c;aGk=\u{07}\u{1B}[2J\ndata: é\u{9B}31m\u{202E}txt 漢\n".utf8)

    @Test func onATerminalControlsAreVisibleWhateverTheChunks() {
        let expected = Array(TerminalSafeText.sanitize(String(decoding: Self.hostile, as: UTF8.self)).utf8)
        #expect(!expected.contains(0x1B) && !expected.contains(0x07))
        for size in 1...7 {
            let output = TerminalGuardedOutput(guarding: true)
            var written: [UInt8] = []
            var at = 0
            while at < Self.hostile.count {
                let chunk = Array(Self.hostile[at..<min(at + size, Self.hostile.count)])
                written += chunk.withUnsafeBytes { output.filter($0) }
                at += size
            }
            written += output.finish()
            #expect(written == expected, "chunks of \(size)")
        }
    }

    @Test func inAPipeBytesAreUnchanged() {
        let output = TerminalGuardedOutput(guarding: false)
        #expect(Self.hostile.withUnsafeBytes { output.filter($0) } == Self.hostile)
        #expect(output.finish().isEmpty)
    }
}
