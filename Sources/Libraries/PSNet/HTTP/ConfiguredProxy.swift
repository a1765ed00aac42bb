#if canImport(Glibc)
import Glibc
#endif

/// The proxy libcurl takes from the environment for a URL, found as libcurl finds it
/// (lib/url.c, detect_proxy): `<scheme>_proxy` in lower case, or in upper case too for any
/// scheme but http (a CGI program's HTTP_PROXY could come from a request header), then
/// `all_proxy`/`ALL_PROXY`. libcurl does the proxying, and applies `no_proxy`, itself; this
/// only names the proxy when one failed, as `host:port` (never its user or password).
public struct ConfiguredProxy: Sendable, Equatable {
    /// The variable it came from (`https_proxy`).
    public let variable: String
    public let host: String
    public let port: Int
    /// Whether the proxy URL carries a user (and password) for the proxy.
    public let hasCredentials: Bool

    public var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    public static func forURL(_ url: String, environment: (String) -> String? = Self.processEnvironment) -> ConfiguredProxy? {
        let lowered = url.lowercased()
        guard let schemeEnd = lowered.firstRange(of: "://") else { return nil }
        let scheme = String(lowered[..<schemeEnd.lowerBound])
        var names = [scheme + "_proxy"]
        if scheme != "http" { names.append(scheme.uppercased() + "_PROXY") }
        names += ["all_proxy", "ALL_PROXY"]
        for name in names {
            if let value = environment(name), !value.isEmpty { return parse(value, variable: name) }
        }
        return nil
    }

    public static let processEnvironment: @Sendable (String) -> String? = { name in getenv(name).map { String(cString: $0) } }

    /// `[scheme://][user[:password]@]host[:port][/...]`; the port defaults to libcurl's 1080
    /// (443 for an https:// proxy).
    static func parse(_ value: String, variable: String) -> ConfiguredProxy? {
        var rest = Substring(value)
        var defaultPort = 1080
        if let schemeEnd = rest.firstRange(of: "://") {
            if rest[..<schemeEnd.lowerBound].lowercased() == "https" { defaultPort = 443 }
            rest = rest[schemeEnd.upperBound...]
        }
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        var hasCredentials = false
        if let at = rest.lastIndex(of: "@") {
            hasCredentials = true
            rest = rest[rest.index(after: at)...]
        }
        var host = rest, port = defaultPort
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":"), let number = Int(after.dropFirst()) { port = number }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            if let number = Int(rest[rest.index(after: colon)...]) { port = number }
        }
        guard !host.isEmpty else { return nil }
        return ConfiguredProxy(variable: variable, host: String(host), port: port, hasCredentials: hasCredentials)
    }
}

/// A proxy between us and the server failed us: unreachable, or it refused.
public struct ProxyFailure: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// It could not be resolved or connected to (libcurl's words).
        case unreachable(String)
        /// It wants credentials, or refused the ones given (407; tinyproxy says 401).
        case refusedCredentials(status: Int)
        /// It answered a CONNECT (the tunnel to an https:// server) with this status.
        case refusedTunnel(Int)
    }

    /// The proxy of the environment (nil: a 407 came with none configured).
    public let proxy: ConfiguredProxy?
    public let kind: Kind

    public var refusedCredentials: Bool {
        if case .refusedCredentials = kind { return true }
        return false
    }

    /// One line: names the proxy and says what to check; never its password.
    public func message(server: String) -> String {
        let name = proxy.map { "the proxy \($0.address) (from \($0.variable))" } ?? "a proxy"
        switch kind {
        case .unreachable(let detail):
            return "cannot reach \(name): \(detail)"
        case .refusedCredentials(let status):
            guard let proxy else { return "\(name) asks for credentials (status \(status))" }
            return proxy.hasCredentials
                ? "\(name) refused the credentials (status \(status)): check the user and password in \(proxy.variable)"
                : "\(name) asks for credentials (status \(status)): give them in \(proxy.variable) as http://USER:PASSWORD@\(proxy.address)"
        case .refusedTunnel(let status):
            return "\(name) refused to connect to \(server) (its CONNECT answered \(status))"
        }
    }
}
