extension String {
    /// JavaScript's `substring(0, n)` and `slice(0, n)`: the first n UTF-16 code units.
    func javaScriptPrefix(_ units: Int) -> String {
        String(decoding: Array(utf16.prefix(units)), as: UTF16.self)
    }
}
