/// A JSON syntax check that builds nothing and allocates nothing: one pass over the bytes.
///
/// Filters use it to pass JSON on unchanged (ps-sse copies an event's data into its record), so
/// it accepts exactly what `JSON.parse` accepts (both use JSONScanner), or the next command could
/// not read the record back: RFC 8259 JSON, valid UTF-8, no lone surrogate escapes, no `\u0000`
/// in object keys, at most 2048 levels of nesting, and numbers of any size.
public enum JSONSyntax {
    /// jansson's JSON_PARSER_MAX_DEPTH: every value, scalars too, counts as a level.
    static let maximumDepth = 2048

    public static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        var scanner = JSONScanner(bytes: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        scanner.skipWhitespace()
        guard scanner.value(depth: 1) else { return false }
        scanner.skipWhitespace()
        return scanner.index == scanner.count
    }

    public static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { isValid($0) }
    }
}
