#if canImport(Glibc)
import Glibc
#endif

extension String {
    /// Whether this string's UTF-8 bytes begin with those of `prefix`, compared at once (not
    /// through the UTF8View byte by byte, which is slow on a long text).
    public func startsWithBytes(of prefix: String) -> Bool {
        guard utf8.count >= prefix.utf8.count else { return false }
        var text = self, prefix = prefix
        return text.withUTF8 { text in
            prefix.withUTF8 { prefix in prefix.isEmpty || memcmp(text.baseAddress!, prefix.baseAddress!, prefix.count) == 0 }
        }
    }
}
