import CCurl
import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// One libcurl transfer: the status and headers go to `onHead` as soon as the header block
/// is complete, then every chunk of the body goes to `onBody` as it arrives (nothing is
/// buffered here, so a long stream uses constant memory).
final class CurlTransfer {
    typealias HeadHandler = (HTTPResponseHead) throws -> Void
    typealias BodyHandler = (UnsafeRawBufferPointer) throws -> Void

    private let handle: UnsafeMutableRawPointer
    private let onHead: HeadHandler
    private let onBody: BodyHandler
    private let watchInterrupt: Bool
    private var status = 0
    private var headers: [(name: String, value: String)] = []
    private(set) var headDelivered = false
    /// An error thrown by a handler: libcurl only learns "stop", we rethrow the real reason.
    private var handlerError: Error?
    /// When a byte last arrived (monotonic seconds), for the idle timeout.
    private var lastActivity = MonotonicClock.now
    private var idleTimeout = 0.0
    private var timedOut = false
    /// The environment's proxy for this transfer's URL, to name it when it fails.
    private var proxy: ConfiguredProxy?

    init(handle: UnsafeMutableRawPointer, watchInterrupt: Bool, onHead: @escaping HeadHandler, onBody: @escaping BodyHandler) {
        self.handle = handle
        self.watchInterrupt = watchInterrupt
        self.onHead = onHead
        self.onBody = onBody
    }

    /// Runs the transfer. Throws a handler's error, or a TransferFailure.
    func perform(_ request: HTTPRequest, options: HTTPOptions) throws {
        ps_curl_easy_reset(handle)
        proxy = ConfiguredProxy.forURL(request.url)
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { ps_curl_slist_free_all(headerList) }
        for header in request.headers {
            headerList = ps_curl_slist_append(headerList, "\(header.name): \(header.value)")
        }
        // libcurl would otherwise wait for "100 Continue" before sending a larger body.
        headerList = ps_curl_slist_append(headerList, "Expect:")

        let me = Unmanaged.passUnretained(self).toOpaque()
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errorPointer in
            setOptions(request, options: options, headerList: headerList, errorBuffer: errorPointer.baseAddress!, me: me)
            return ps_curl_easy_perform(handle)
        }
        if let handlerError { throw handlerError }
        if code == CURLE_OK {
            deliverHeadIfNeeded()
            if let handlerError { throw handlerError }
            return
        }
        if code == CURLE_ABORTED_BY_CALLBACK {
            if timedOut {
                throw TransferFailure.network(
                    message: "nothing received for \(Int(idleTimeout)) seconds (see --idle-timeout)", afterHead: headDelivered)
            }
            throw TransferFailure.interrupted
        }
        let detail = String(cString: errorBuffer).trimmingSpaces
        let message = detail.isEmpty ? String(cString: ps_curl_easy_strerror(code)) : detail
        if let failure = proxyFailure(code, message: message) { throw TransferFailure.proxy(failure) }
        switch code {
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE,
             CURLE_SSL_CERTPROBLEM, CURLE_SSL_ISSUER_ERROR:
            throw TransferFailure.tls(message: message)
        case CURLE_COULDNT_RESOLVE_HOST:
            throw TransferFailure.unresolved(message: message)
        case CURLE_COULDNT_CONNECT where !headDelivered:
            throw TransferFailure.cannotConnect(message: message)
        default:
            throw TransferFailure.network(message: message, afterHead: headDelivered)
        }
    }

    /// Whether the proxy, not the server, failed: it could not be resolved; the address
    /// libcurl failed to connect to is the proxy's; or it refused the CONNECT of a tunnel.
    private func proxyFailure(_ code: CURLcode, message: String) -> ProxyFailure? {
        guard let proxy, !headDelivered else { return nil }
        if code == CURLE_COULDNT_RESOLVE_PROXY { return ProxyFailure(proxy: proxy, kind: .unreachable(message)) }
        if code == CURLE_COULDNT_CONNECT || code == CURLE_OPERATION_TIMEDOUT,
            message.contains(" to \(proxy.host) port \(proxy.port) ")
        {
            return ProxyFailure(proxy: proxy, kind: .unreachable(message))
        }
        var connectCode = 0
        ps_curl_getinfo_long(handle, CURLINFO_HTTP_CONNECTCODE, &connectCode)
        if connectCode == 407 || connectCode == 401 { return ProxyFailure(proxy: proxy, kind: .refusedCredentials(status: connectCode)) }
        if connectCode >= 300 { return ProxyFailure(proxy: proxy, kind: .refusedTunnel(connectCode)) }
        return nil
    }

    private func setOptions(
        _ request: HTTPRequest, options: HTTPOptions, headerList: UnsafeMutablePointer<curl_slist>?,
        errorBuffer: UnsafeMutablePointer<CChar>, me: UnsafeMutableRawPointer
    ) {
        ps_curl_setopt_ptr(handle, CURLOPT_URL, request.url)
        ps_curl_setopt_ptr(handle, CURLOPT_USERAGENT, options.userAgent)
        ps_curl_setopt_ptr(handle, CURLOPT_HTTPHEADER, headerList)
        ps_curl_setopt_ptr(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        ps_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        ps_curl_setopt_long(handle, CURLOPT_TCP_KEEPALIVE, 1)
        // A proxy's answer to CONNECT is not the server's head (its status is read apart).
        ps_curl_setopt_long(handle, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        // Redirects are not followed: they could carry the Authorization header elsewhere.
        ps_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        ps_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, options.connectTimeout)
        // The idle timeout is ours (see `progress`): libcurl's low-speed check averages over
        // several seconds, so it cannot tell "idle for N seconds" precisely.
        idleTimeout = Double(options.idleTimeout)
        lastActivity = MonotonicClock.now
        // A request that may have started something on the server is sent on a new connection:
        // libcurl silently resends a request once when a reused connection turns out dead.
        if !request.isIdempotent { ps_curl_setopt_long(handle, CURLOPT_FRESH_CONNECT, 1) }
        if let caFile = options.caFile { ps_curl_setopt_ptr(handle, CURLOPT_CAINFO, caFile) }
        if options.insecure {
            ps_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 0)
            ps_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 0)
        }
        switch request.method {
        case "GET": ps_curl_setopt_long(handle, CURLOPT_HTTPGET, 1)
        case "POST": ps_curl_setopt_long(handle, CURLOPT_POST, 1)
        default: ps_curl_setopt_ptr(handle, CURLOPT_CUSTOMREQUEST, request.method)
        }
        if let body = request.body {
            ps_curl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            _ = body.withUnsafeBytes { ps_curl_setopt_ptr(handle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)) }
        } else if request.method == "POST" {
            ps_curl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, 0)
            ps_curl_setopt_ptr(handle, CURLOPT_COPYPOSTFIELDS, "")
        }

        ps_curl_setopt_header(handle) { buffer, size, count, user in
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
            let bytes = UnsafeRawBufferPointer(start: buffer, count: size * count)
            return transfer.receiveHeaderLine(bytes) ? size * count : 0
        }
        ps_curl_setopt_ptr(handle, CURLOPT_HEADERDATA, me)
        ps_curl_setopt_write(handle) { buffer, size, count, user in
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
            let bytes = UnsafeRawBufferPointer(start: buffer, count: size * count)
            return transfer.receiveBody(bytes) ? size * count : 0
        }
        ps_curl_setopt_ptr(handle, CURLOPT_WRITEDATA, me)
        ps_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
        ps_curl_setopt_xferinfo(handle) { user, _, _, _, _ in
            Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue().progress() ? 0 : 1
        }
        ps_curl_setopt_ptr(handle, CURLOPT_XFERINFODATA, me)
    }

    /// Called by libcurl at least once a second, also while nothing arrives: false stops the
    /// transfer (Ctrl-C, or idle too long).
    private func progress() -> Bool {
        Interrupt.whileWaiting?()
        if watchInterrupt && Interrupt.stopsTransfers { return false }
        if MonotonicClock.now - lastActivity > idleTimeout {
            timedOut = true
            return false
        }
        return true
    }

    /// One header line, CRLF included. A status line starts a new header block (after a
    /// 100 Continue, say); the blank line ends it.
    private func receiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Bool {
        lastActivity = MonotonicClock.now
        var end = line.count
        while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
        let text = String(decoding: line[0..<end], as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            headers.removeAll()
            let fields = text.split(separator: " ", maxSplits: 2)
            status = fields.count > 1 ? Int(fields[1]) ?? 0 : 0
            return true
        }
        if end == 0 {
            if status >= 200 || status == 0 { deliverHeadIfNeeded() }
            return handlerError == nil
        }
        if let colon = text.firstIndex(of: ":") {
            let name = String(text[..<colon])
            let value = String(text[text.index(after: colon)...]).trimmingSpaces
            headers.append((name, value))
        }
        return true
    }

    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lastActivity = MonotonicClock.now
        deliverHeadIfNeeded()
        guard handlerError == nil else { return false }
        do {
            try onBody(bytes)
            return true
        } catch {
            handlerError = error
            return false
        }
    }

    private var asksForBasicAuthentication: Bool {
        headers.contains { $0.name.lowercased() == "www-authenticate" && $0.value.lowercased().hasPrefix("basic") }
    }

    private func deliverHeadIfNeeded() {
        guard !headDelivered else { return }
        headDelivered = true
        if status == 0 {
            var code = 0
            ps_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
            status = code
        }
        // Only a proxy answers 407; tinyproxy (1.11) answers wrong proxy credentials with 401
        // and `WWW-Authenticate: Basic`, which no API here asks for. The proxy's page is not
        // the server's answer, and is not read.
        if status == 407 || (status == 401 && proxy?.hasCredentials == true && asksForBasicAuthentication) {
            handlerError = TransferFailure.proxy(ProxyFailure(proxy: proxy, kind: .refusedCredentials(status: status)))
            return
        }
        do { try onHead(HTTPResponseHead(status: status, headers: headers)) } catch { handlerError = error }
    }
}
