#if canImport(Glibc)
import Glibc
#endif

/// When and how long to wait before sending an idempotent request again: network errors,
/// 5xx and 429 are retried a bounded number of times with exponential backoff; a server's
/// `Retry-After` wins over the backoff but is capped so that a script never hangs for an hour.
public struct RetryPolicy: Sendable, Equatable {
    /// Retries after the first attempt (0 = never retry).
    public var maxRetries = 3
    /// The first backoff delay in seconds; doubled on each retry.
    public var baseDelay = 0.5
    /// The longest backoff delay in seconds.
    public var maxDelay = 8.0
    /// The longest wait a `Retry-After` may ask for; a longer one is not waited for: the
    /// request fails with the server's answer instead.
    public var maxRetryAfter = 60.0

    public init(maxRetries: Int = 3, baseDelay: Double = 0.5, maxDelay: Double = 8.0, maxRetryAfter: Double = 60.0) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    /// Whether a response status is worth trying again.
    public static func isRetryable(status: Int) -> Bool {
        status == 429 || status == 408 || ((500...599).contains(status) && status != 501)
    }

    /// The delay before retry number `retry` (1-based), or nil when no retry should be made.
    /// `retryAfter` is the server's wish in seconds, if it sent one.
    public func delay(beforeRetry retry: Int, retryAfter: Double?) -> Double? {
        guard retry >= 1, retry <= maxRetries else { return nil }
        if let retryAfter {
            return retryAfter <= maxRetryAfter ? max(0, retryAfter) : nil
        }
        let exponential = baseDelay * pow(2.0, Double(retry - 1))
        return min(maxDelay, exponential)
    }
}

/// Parses a `Retry-After` header: delay-seconds or an HTTP-date (RFC 9110 section 10.2.3).
public enum RetryAfter {
    /// Seconds to wait from `now` (Unix time), or nil when the value is neither form.
    public static func seconds(_ value: String, now: Double = Double(time(nil))) -> Double? {
        let trimmed = value.trimmingSpaces
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            return Double(trimmed.prefix(9))  // absurd lengths are capped, not overflowed
        }
        guard let date = httpDate(trimmed) else { return nil }
        return max(0, date - now)
    }

    /// The IMF-fixdate form ("Sun, 06 Nov 1994 08:49:37 GMT", the one senders must use) as
    /// Unix time.
    static func httpDate(_ text: String) -> Double? {
        let fields = text.split(separator: " ")
        guard fields.count == 6, fields[0].hasSuffix(","), fields[5] == "GMT",
              let day = Int(fields[1]), let year = Int(fields[3]),
              let month = months.firstIndex(of: String(fields[2])) else { return nil }
        let clock = fields[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (1...31).contains(day), clock[0] < 24, clock[1] < 60, clock[2] < 61 else { return nil }
        let days = daysFromCivil(year: year, month: month + 1, day: day)
        return Double(days * 86400 + clock[0] * 3600 + clock[1] * 60 + clock[2])
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }
}

extension String {
    var trimmingSpaces: String {
        let bytes = Array(utf8)
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 || bytes[start] == 0x0D || bytes[start] == 0x0A { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 || bytes[end - 1] == 0x0D || bytes[end - 1] == 0x0A { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
