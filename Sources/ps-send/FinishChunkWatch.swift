import PSCore

/// Watches a stream's lines, as they pass, for the chunk that says the reply is whole: a UI
/// message stream's `finish` chunk (`data: {"type":"finish",…}`), or a chat completion
/// stream's chunk with a `finish_reason` (an OpenAI-compatible server's, PageSpace's `/api/v1`).
/// Lines are scanned as bytes; only a short `data:` line that mentions "finish" is parsed, so
/// a long reply costs next to nothing.
struct FinishChunkWatch {
    private(set) var sawFinish = false
    private var line: [UInt8] = []
    private var lineTooLong = false
    /// A finish chunk is small (reason, usage, metadata); a longer line is not one.
    private static let longestFinishLine = 16 * 1024

    mutating func scan(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            if byte == 0x0A || byte == 0x0D {
                if !lineTooLong { check(line) }
                line.removeAll(keepingCapacity: true)
                lineTooLong = false
            } else if !lineTooLong {
                line.append(byte)
                if line.count > Self.longestFinishLine { lineTooLong = true }
            }
        }
    }

    private mutating func check(_ line: [UInt8]) {
        guard line.starts(with: Array("data:".utf8)) else { return }
        let data = line.dropFirst(5).drop { $0 == 0x20 }
        guard data.first == UInt8(ascii: "{"), Self.mentionsFinish(data),
              let chunk = try? JSON.parse(bytes: Array(data)) else { return }
        if chunk["type"]?.stringValue == "finish" { sawFinish = true }
        if chunk["object"]?.stringValue == "chat.completion.chunk",
           chunk["choices"]?.arrayValue?.contains(where: { $0["finish_reason"]?.stringValue != nil }) == true {
            sawFinish = true
        }
    }

    private static func mentionsFinish(_ data: ArraySlice<UInt8>) -> Bool {
        contains(data, Array("\"finish\"".utf8)) || contains(data, Array("\"finish_reason\":\"".utf8))
    }

    private static func contains(_ data: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard data.count >= needle.count else { return false }
        var index = data.startIndex
        while index <= data.endIndex - needle.count {
            if data[index] == needle[0] && data[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
