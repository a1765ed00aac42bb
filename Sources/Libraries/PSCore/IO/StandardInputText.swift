/// Text piped on stdin (a message, an edit): read whole, at most `limit` bytes, trailing
/// newlines dropped. A terminal on stdin is refused with `usage` rather than waited on.
public enum StandardInputText {
    public static func read(usage: String, limit: Int = Int.max, tooLong: String = "the piped input is too long") throws -> String {
        try Terminal.refuseInteractiveStdin(usage: usage)
        let text = try readPiped(limit: limit, tooLong: tooLong)
        guard !text.isEmpty else { throw ToolError(.usage, "empty text on stdin") }
        return text
    }

    /// Whatever stdin holds (possibly nothing), without the terminal check.
    public static func readPiped(limit: Int = Int.max, tooLong: String = "the piped input is too long") throws -> String {
        var bytes: [UInt8] = []
        try ChunkReader(fd: 0, name: "stdin").forEachChunk { chunk in
            bytes.append(contentsOf: chunk)
            if bytes.count > limit { throw ToolError(.usage, tooLong) }
        }
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
