/// Whether a text is JSON, as `JSON.parse` reads it, without building any value.
///
/// Filters use it to pass JSON on unchanged (ps-sse copies an event's data into its record), so
/// it accepts exactly what `JSON.parse` accepts, or the next command could not read the record
/// back: jansson checks it (RFC 8259 JSON, valid UTF-8, no lone surrogate escapes, no `\u0000` in
/// object keys, at most 2048 levels of nesting), and numbers of any size are JSON.
public enum JSONSyntax {
    public static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        JSON.accepts(bytes)
    }

    public static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { isValid($0) }
    }
}
