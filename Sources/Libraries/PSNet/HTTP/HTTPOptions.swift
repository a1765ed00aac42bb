/// How transfers connect: TLS, timeouts, retries. Proxies come from the usual environment
/// variables (`https_proxy`, `http_proxy`, `no_proxy`, ...), which libcurl reads itself.
public struct HTTPOptions: Sendable {
    /// A CA bundle to verify the server with instead of the system's.
    public var caFile: String?
    /// Skip TLS verification (only ever on explicit request).
    public var insecure = false
    /// Seconds to wait for the connection to be set up.
    public var connectTimeout = 15
    /// Seconds a transfer may go without receiving a single byte. Streams send keep-alive
    /// comments while the model thinks, so any byte resets this.
    public var idleTimeout = 300
    public var retry = RetryPolicy()
    /// The most bytes a whole response read into memory may have (a JSON answer, a history
    /// page): a larger one stops the transfer with `TransferFailure.tooLarge`. Streams have none.
    public var maxResponseBytes = 256 * 1024 * 1024
    public var userAgent = "ps-tools/\(PSToolsVersion.current)"

    public init() {}
}

public enum PSToolsVersion {
    public static let current = "0.1.0"
}
