import HTTPTypes
import PSCore
import Synchronization

/// The late-2025 server's in-memory rate limiter for its auth routes, checkRateLimit and
/// resetRateLimit of packages/lib/src/rate-limit-utils.ts:35-131 at 458264c5b, with its LOGIN
/// and REFRESH configurations (:174-199). One map for every route, keyed `auth:<identifier>`.
final class AuthRateLimit: Sendable {
    struct Config: Sendable {
        let maxAttempts: Int
        let windowMs: Int64
        let blockMs: Int64
        let progressive: Bool
    }

    /// 5 attempts in 15 minutes, then blocked 15 minutes, doubling with each attempt over,
    /// at most 30 minutes.
    static let login = Config(maxAttempts: 5, windowMs: 15 * 60_000, blockMs: 15 * 60_000, progressive: true)
    /// 10 attempts in 5 minutes, then blocked 5 minutes.
    static let refresh = Config(maxAttempts: 10, windowMs: 5 * 60_000, blockMs: 5 * 60_000, progressive: false)

    private struct Attempt {
        var count: Int
        var first: Int64
        var blockedUntil: Int64?
    }

    private let attempts = Mutex<[String: Attempt]>([:])

    /// checkRateLimit: counts this attempt; nil when it is allowed, else the seconds to wait.
    func check(_ identifier: String, _ config: Config) -> Int64? {
        let now = Timestamp.now()
        let key = "auth:" + identifier
        return attempts.withLock { attempts in
            guard var attempt = attempts[key] else {
                attempts[key] = Attempt(count: 1, first: now)
                return nil
            }
            defer { attempts[key] = attempt }
            if let until = attempt.blockedUntil {
                if now < until { return (until - now + 999) / 1000 }
                attempt = Attempt(count: 1, first: now)  // the block is over
                return nil
            }
            if now - attempt.first > config.windowMs {
                attempt = Attempt(count: 1, first: now)  // a new window
                return nil
            }
            attempt.count += 1
            if attempt.count <= config.maxAttempts { return nil }
            var block = config.blockMs
            if config.progressive {
                let over = attempt.count - config.maxAttempts
                block = min(block << min(over - 1, 20), 30 * 60_000)
            }
            attempt.blockedUntil = now + block
            return (block + 999) / 1000
        }
    }

    /// resetRateLimit: a successful login forgets the identifier's attempts.
    func reset(_ identifier: String) {
        _ = attempts.withLock { $0.removeValue(forKey: "auth:" + identifier) }
    }

    /// The client's address as the routes read it: the first of X-Forwarded-For, else
    /// X-Real-IP, else "unknown" (every client without them shares one count).
    static func clientIP(_ headers: HTTPFields) -> String {
        if let forwarded = headers[HTTPField.Name("X-Forwarded-For")!],
           let first = forwarded.split(separator: ",", omittingEmptySubsequences: false).first, !first.isEmpty {
            return String(first)
        }
        if let real = headers[HTTPField.Name("X-Real-IP")!], !real.isEmpty { return real }
        return "unknown"
    }
}
