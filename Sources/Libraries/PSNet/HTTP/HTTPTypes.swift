/// One HTTP request. The body, if any, is sent as is.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]?
    /// A status that is normally worth retrying (503, ...) means here an answer that will not
    /// change (a route that answers 503 for a feature the deployment lacks): never retried.
    public var statusIsFinal = false

    public init(method: String, url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// Whether a failed attempt may be sent again without side effects.
    public var isIdempotent: Bool { method == "GET" || method == "HEAD" }
}

/// Status and headers of a response, known before its body arrives.
public struct HTTPResponseHead: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]

    public init(status: Int, headers: [(name: String, value: String)]) {
        self.status = status
        self.headers = headers
    }

    /// The last value of a header (names compare case-insensitively).
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.last { $0.name.lowercased() == wanted }?.value
    }

    public var isSuccess: Bool { (200..<300).contains(status) }
}

/// A response whose body was read completely (small JSON answers, error bodies).
public struct HTTPResponse: Sendable {
    public var head: HTTPResponseHead
    public var body: [UInt8]

    public init(head: HTTPResponseHead, body: [UInt8]) {
        self.head = head
        self.body = body
    }

    public var status: Int { head.status }
}

/// Why a transfer failed before a complete response arrived.
public enum TransferFailure: Error, Sendable, Equatable {
    /// Ctrl-C (or another interrupt) stopped the transfer.
    case interrupted
    /// The server could not be reached, timed out, or the connection broke. `afterHead` tells
    /// whether the response had begun (a stream cut midway) or not (nothing was received).
    case network(message: String, afterHead: Bool)
    /// No connection could be made (refused): nothing of the request was sent, so sending it
    /// again is safe whatever its method.
    case cannotConnect(message: String)
    /// The server's name does not resolve (a typo, or no network): never retried, since a
    /// name that does not resolve now will not a second later.
    case unresolved(message: String)
    /// TLS verification or setup failed.
    case tls(message: String)
    /// A response read whole was larger than `HTTPOptions.maxResponseBytes`.
    case tooLarge(limit: Int)
    /// The proxy of the environment could not be reached, or refused (never retried).
    case proxy(ProxyFailure)
}
