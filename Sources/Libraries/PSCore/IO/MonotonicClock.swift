#if canImport(Glibc)
import Glibc
#endif

/// Seconds on a clock that never jumps (CLOCK_MONOTONIC), for intervals and timeouts.
public enum MonotonicClock {
    public static var now: Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
