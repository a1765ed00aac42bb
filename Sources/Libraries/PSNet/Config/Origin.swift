/// The scheme, host and port of a server URL: what a stored credential is bound to. Two URLs
/// with the same origin are the same server whatever their paths; `HTTPS://Example.com:443/`
/// and `https://example.com` are one origin, `http://example.com` and `https://example.com:8443`
/// are two others.
public struct Origin: Sendable, Equatable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    public let port: Int

    /// Nil for what is not an http(s) URL with a host and a valid port: such a URL matches no
    /// origin, so no stored credential goes to it.
    public init?(url: String) {
        let text = url.trimmingSpaces
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else { return nil }
        scheme = text[..<colon].lowercased()
        guard let defaultPort = Origin.defaultPorts[scheme] else { return nil }
        var authority = text[colon...].dropFirst(3).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let hostPart: Substring, portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            hostPart = authority[...close]
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return nil }
            portPart = rest.isEmpty ? nil : rest.dropFirst()
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        } else {
            hostPart = authority
            portPart = nil
        }
        var host = hostPart.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        guard !host.isEmpty else { return nil }
        self.host = host
        if let portPart, !portPart.isEmpty {
            guard portPart.count <= 5, portPart.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let port = Int(portPart), (1...65535).contains(port) else { return nil }
            self.port = port
        } else {
            port = defaultPort
        }
    }

    static let defaultPorts = ["https": 443, "http": 80]

    /// `scheme://host`, with the port when it is not the scheme's default.
    public var description: String {
        scheme + "://" + host + (Origin.defaultPorts[scheme] == port ? "" : ":\(port)")
    }
}
