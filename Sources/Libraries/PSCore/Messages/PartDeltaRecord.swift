/// Nearly every line ps-render reads while a message streams is a part delta as ps-parts writes
/// it: `{"type":"part-delta","index":1,"delta":"…"}`. Recognised straight from the bytes, without
/// a JSON tree, with RecordScanner: any whitespace, the three keys in any order,
/// every escape of the delta. Anything else (another key, a key twice, an index that is not a
/// plain non-negative integer, a lone surrogate, invalid UTF-8) returns nil and takes the general
/// path, so the result is always the same.
public enum PartDeltaRecord {
    /// When `line` is such a record, gives `body` the index and the delta's bytes, decoded and
    /// valid UTF-8 (the line's own bytes when the delta has no escape: no String is made for it),
    /// and returns true. Otherwise returns false, and `body` is not called. (Not generic: a
    /// generic function of another module looks up its type metadata at each call.)
    public static func match(
        _ line: UnsafeRawBufferPointer, _ body: (_ index: Int, _ delta: UnsafeRawBufferPointer) throws -> Void
    ) rethrows -> Bool {
        guard let (index, delta) = locate(line), UTF8Check.isValid(delta.raw) else { return false }
        return try RecordScanner.withDecoded(delta.raw, escaped: delta.escaped) { try body(index, $0) }
    }

    /// The index, and the delta's body as it is in the line, of a part-delta record.
    private static func locate(_ line: UnsafeRawBufferPointer) -> (Int, (raw: UnsafeRawBufferPointer, escaped: Bool))? {
        guard let base = line.baseAddress else { return nil }
        var scanner = RecordScanner(base: base, count: line.count)
        // ps-parts' own spelling, its keys and type compared at once rather than each read as a
        // string (a third of the work of a short delta).
        if scanner.expect(compactHead), let index = scanner.smallInteger(), scanner.expect(compactDeltaKey),
            let delta = scanner.stringBody(), scanner.next() == UInt8(ascii: "}"), scanner.position == line.count
        {
            return (index, delta)
        }
        scanner.position = 0
        scanner.skipWhitespace()
        guard scanner.next() == UInt8(ascii: "{") else { return nil }
        var isPartDelta = false
        var index: Int?
        var delta: (raw: UnsafeRawBufferPointer, escaped: Bool)?
        while true {
            scanner.skipWhitespace()
            guard let key = scanner.plainString(validated: false) else { return nil }
            scanner.skipWhitespace()
            guard scanner.next() == UInt8(ascii: ":") else { return nil }
            scanner.skipWhitespace()
            switch key.count {
            case 4 where RecordScanner.equal(key, "type"):
                guard !isPartDelta, let type = scanner.plainString(validated: false),
                    RecordScanner.equal(type, "part-delta")
                else { return nil }
                isPartDelta = true
            case 5 where RecordScanner.equal(key, "index"):
                guard index == nil, let value = scanner.smallInteger() else { return nil }
                index = value
            case 5 where RecordScanner.equal(key, "delta"):
                guard delta == nil, let value = scanner.stringBody() else { return nil }
                delta = value
            default: return nil
            }
            scanner.skipWhitespace()
            switch scanner.next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"):
                guard isPartDelta, let index, let delta else { return nil }
                scanner.skipWhitespace()
                return scanner.position == line.count ? (index, delta) : nil
            default: return nil
            }
        }
    }

    private static let compactHead = Array(#"{"type":"part-delta","index":"#.utf8)
    private static let compactDeltaKey = Array(#","delta":"#.utf8)
}

extension RecordScanner {
    /// A JSON integer of 1 to 9 digits without sign, fraction or exponent ("0", or no leading zero).
    mutating func smallInteger() -> Int? {
        var value = 0
        var digits = 0
        while position < count, case let byte = self[position], byte >= 0x30 && byte <= 0x39 {
            if digits == 1 && value == 0 { return nil }
            value = value * 10 + Int(byte - 0x30)
            digits += 1
            position += 1
        }
        guard digits > 0 && digits <= 9 else { return nil }
        if position < count, case let byte = self[position], byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e") {
            return nil
        }
        return value
    }
}
