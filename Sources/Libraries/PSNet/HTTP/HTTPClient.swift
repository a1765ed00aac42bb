import CCurl
import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// HTTP over libcurl. One client keeps one connection cache, so paging through a history
/// reuses the connection.
public final class HTTPClient {
    public let options: HTTPOptions
    /// Told about each retry ("server error 503, retrying in 1s"), for a warning on stderr.
    public var onRetry: ((String) -> Void)?
    /// libcurl's handle, made by the first request (which loads libcurl).
    private var handle: UnsafeMutableRawPointer?

    public init(options: HTTPOptions = HTTPOptions()) {
        self.options = options
    }

    deinit { if let handle { ps_curl_easy_cleanup(handle) } }

    private func curlHandle() throws -> UnsafeMutableRawPointer {
        if let handle { return handle }
        try CurlLibrary.load()
        guard let made = ps_curl_easy_init() else { throw ToolError(.failure, "libcurl could not create a handle") }
        handle = made
        return made
    }

    /// Sends a request and streams its response: `onHead` gets status and headers before any
    /// of the body, `onBody` each chunk as it arrives. Retried only when no connection could be
    /// made (nothing was sent, whatever the method), as `options.retry` allows; never once the
    /// caller may have passed on part of the body. With `watchInterrupt`, Ctrl-C aborts the
    /// transfer with `TransferFailure.interrupted`.
    public func stream(
        _ request: HTTPRequest, watchInterrupt: Bool = true,
        onHead: @escaping (HTTPResponseHead) throws -> Void,
        onBody: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var retry = 0
        while true {
            retry += 1
            let transfer = CurlTransfer(handle: try curlHandle(), watchInterrupt: watchInterrupt, onHead: onHead, onBody: onBody)
            do {
                return try transfer.perform(request, options: options)
            } catch TransferFailure.cannotConnect(let message) {
                guard let delay = options.retry.delay(beforeRetry: retry, retryAfter: nil) else {
                    throw TransferFailure.cannotConnect(message: message)
                }
                try wait(delay, reason: "cannot connect (\(message))", retry: retry)
            }
        }
    }

    /// Sends a request and reads the whole response (for small JSON answers). Idempotent
    /// requests are retried after network errors, 5xx and 429 as `options.retry` allows (any
    /// request when no connection could be made: `stream` does that); the
    /// last answer is returned whatever its status, so the caller reports it.
    public func send(_ request: HTTPRequest, watchInterrupt: Bool = true) throws -> HTTPResponse {
        var retry = 0
        while true {
            retry += 1
            let response: HTTPResponse
            do {
                response = try sendOnce(request, watchInterrupt: watchInterrupt)
            } catch TransferFailure.network(let message, let afterHead) {
                guard request.isIdempotent, let delay = options.retry.delay(beforeRetry: retry, retryAfter: nil) else {
                    throw TransferFailure.network(message: message, afterHead: afterHead)
                }
                try wait(delay, reason: "network error (\(message))", retry: retry)
                continue
            }
            guard request.isIdempotent, !request.statusIsFinal, RetryPolicy.isRetryable(status: response.status) else {
                return response
            }
            let retryAfter = response.head.header("Retry-After").flatMap { RetryAfter.seconds($0) }
            guard let delay = options.retry.delay(beforeRetry: retry, retryAfter: retryAfter) else { return response }
            try wait(delay, reason: "server answered \(response.status)", retry: retry)
        }
    }

    private func sendOnce(_ request: HTTPRequest, watchInterrupt: Bool) throws -> HTTPResponse {
        var head = HTTPResponseHead(status: 0, headers: [])
        var body: [UInt8] = []
        let limit = options.maxResponseBytes
        try stream(request, watchInterrupt: watchInterrupt, onHead: { head = $0 }, onBody: {
            guard body.count + $0.count <= limit else { throw TransferFailure.tooLarge(limit: limit) }
            body.append(contentsOf: $0)
        })
        return HTTPResponse(head: head, body: body)
    }

    /// Sleeps in small steps so Ctrl-C is not held up by a long Retry-After.
    private func wait(_ seconds: Double, reason: String, retry: Int) throws {
        onRetry?("\(reason); retrying in \(Self.format(seconds)) (\(retry)/\(options.retry.maxRetries))")
        var remaining = seconds
        while remaining > 0 {
            if Interrupt.isRequested { throw TransferFailure.interrupted }
            let step = min(remaining, 0.1)
            usleep(useconds_t(step * 1_000_000))
            remaining -= step
        }
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(Int((seconds * 1000).rounded()))ms"
    }
}
