import CCurl
import PSCore

/// libcurl, opened by the first request rather than linked (see CCurl.h): a command that sends
/// nothing never loads it, nor the thirty libraries it needs.
enum CurlLibrary {
    static let soname = "libcurl.so.4"

    /// Loads libcurl for this process, if it is not yet. Without it no request can be made:
    /// a ToolError (exit 1) that names what is missing.
    static func load() throws {
        if ps_curl_is_loaded() != 0 { return }
        if let failure = ps_curl_load(soname) { throw unavailable(soname, reason: String(cString: failure)) }
    }

    /// The error `load()` would end with if `soname` were the library: nil when it opens and
    /// has every function used. The process's own libcurl, loaded or not, is left as it is.
    static func probe(_ soname: String) -> ToolError? {
        ps_curl_probe(soname).map { unavailable(soname, reason: String(cString: $0)) }
    }

    private static func unavailable(_ soname: String, reason: String) -> ToolError {
        ToolError(.failure, "\(soname) is needed to reach a server and could not be loaded (\(reason)); install libcurl (Debian: libcurl4)")
    }
}
