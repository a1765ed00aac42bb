import Testing
@testable import PSCore

/// ps-sse's format detection decides on the first non-blank line, however it is split or long.
@Suite struct StreamTranslatorTests {
    /// Runs `chunks` through a translator in auto mode, writing into a closed-off writer; returns
    /// the detected records.
    static func translate(_ chunks: [[UInt8]]) throws -> String {
        let writer = RecordWriter(fd: -1)
        let output = EventRecordOutput(raw: false, writer: writer)
        var translator = StreamTranslator(format: .auto, output: output, inputName: "test")
        var records: [UInt8] = []
        for chunk in chunks {
            try chunk.withUnsafeBytes { try translator.feed($0) }
        }
        try? translator.finish()
        writer.append { records = $0 }
        return String(decoding: records, as: UTF8.self)
    }

    @Test func blankLinesBeforeTheFirstLineAreSkipped() throws {
        let blanks = [UInt8](repeating: 0x0A, count: 64 * 1024)
        let result = try Self.translate([[0xEF, 0xBB, 0xBF]] + Array(repeating: blanks, count: 40) + [Array("0:\"Hi\"\n".utf8)])
        #expect(result == #"{"event":"data-stream","id":"","data":{"code":"0","value":"Hi"}}"# + "\n")
        let sse = try Self.translate(Array(repeating: Array("\r\n".utf8), count: 1000) + [Array("data: 1\n\n".utf8)])
        #expect(sse == #"{"event":"message","id":"","data":1}"# + "\n")
    }

    @Test func aLongFirstLineIsStillRead() throws {
        let filler = [UInt8](repeating: 0x61, count: 64 * 1024)
        let result = try Self.translate([Array("0:\"".utf8)] + Array(repeating: filler, count: 40) + [Array("\"\n".utf8)])
        #expect(result.hasPrefix(#"{"event":"data-stream","id":"","data":{"code":"0","value":"aaaa"#))
    }

    @Test func twoBytesDecideSSE() throws {
        let result = try Self.translate([Array("d".utf8), Array("ata: x\n\n".utf8)])
        #expect(result == #"{"event":"message","id":"","data":"x"}"# + "\n")
    }
}
