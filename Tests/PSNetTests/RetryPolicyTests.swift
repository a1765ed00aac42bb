import Testing
@testable import PSNet

@Suite struct RetryPolicyTests {
    @Test func backoffDoublesUpToTheMaximumAndStopsAfterMaxRetries() {
        let policy = RetryPolicy(maxRetries: 5, baseDelay: 0.5, maxDelay: 3, maxRetryAfter: 10)
        #expect(policy.delay(beforeRetry: 1, retryAfter: nil) == 0.5)
        #expect(policy.delay(beforeRetry: 2, retryAfter: nil) == 1)
        #expect(policy.delay(beforeRetry: 3, retryAfter: nil) == 2)
        #expect(policy.delay(beforeRetry: 4, retryAfter: nil) == 3)
        #expect(policy.delay(beforeRetry: 5, retryAfter: nil) == 3)
        #expect(policy.delay(beforeRetry: 6, retryAfter: nil) == nil)
        #expect(RetryPolicy(maxRetries: 0).delay(beforeRetry: 1, retryAfter: nil) == nil)
    }

    @Test func retryAfterWinsOverBackoffButIsCapped() {
        let policy = RetryPolicy(maxRetries: 3, baseDelay: 0.5, maxDelay: 8, maxRetryAfter: 10)
        #expect(policy.delay(beforeRetry: 1, retryAfter: 7) == 7)
        #expect(policy.delay(beforeRetry: 1, retryAfter: 0) == 0)
        // Longer than the cap: not waited for, the answer is reported instead.
        #expect(policy.delay(beforeRetry: 1, retryAfter: 11) == nil)
    }

    @Test func retryableStatuses() {
        for status in [429, 500, 502, 503, 504, 408] { #expect(RetryPolicy.isRetryable(status: status)) }
        for status in [200, 400, 401, 402, 403, 404, 409, 501] { #expect(!RetryPolicy.isRetryable(status: status)) }
    }

    @Test func retryAfterSeconds() {
        #expect(RetryAfter.seconds("120") == 120)
        #expect(RetryAfter.seconds(" 3 ") == 3)
        #expect(RetryAfter.seconds("0") == 0)
        #expect(RetryAfter.seconds("-1") == nil)
        #expect(RetryAfter.seconds("1.5") == nil)
        #expect(RetryAfter.seconds("soon") == nil)
        #expect(RetryAfter.seconds("") == nil)
        #expect(RetryAfter.seconds("99999999999999999999999") != nil)
    }

    @Test func retryAfterHTTPDate() {
        // 1994-11-06T08:49:37Z is 784111777.
        #expect(RetryAfter.httpDate("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:57 GMT", now: 784_111_777) == 20)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_800) == 0)  // in the past
        #expect(RetryAfter.httpDate("Sun, 06 Foo 1994 08:49:37 GMT") == nil)
        #expect(RetryAfter.httpDate("Sun, 06 Nov 1994 25:49:37 GMT") == nil)
        #expect(RetryAfter.httpDate("Sun, 06 Nov 1994 08:49:37 PST") == nil)
        #expect(RetryAfter.daysFromCivil(year: 1970, month: 1, day: 1) == 0)
        #expect(RetryAfter.daysFromCivil(year: 2000, month: 3, day: 1) == 11_017)
    }
}
