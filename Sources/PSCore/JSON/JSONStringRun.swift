/// Where a run of plain bytes in a JSON string's body ends: at the first quote, backslash or
/// control byte (under 0x20), each of which the caller looks at on its own. Eight bytes at a time
/// while none of them is one: the body of a long message's text is read at that speed.
enum JSONStringRun {
    /// The offset of the first `"`, `\` or control byte in `base[from..<count]`, or `count`.
    static func end(_ base: UnsafeRawPointer, from start: Int, count: Int) -> Int {
        var index = start
        while index + 8 <= count {
            let word = ByteWord.load(base + index)
            if ByteWord.hasByteBelow(word, 0x20) || ByteWord.has(word, 0x22) || ByteWord.has(word, 0x5C) { break }
            index += 8
        }
        while index < count {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte == 0x22 || byte == 0x5C || byte < 0x20 { return index }
            index += 1
        }
        return count
    }
}
