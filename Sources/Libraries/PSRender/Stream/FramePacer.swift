import PSCore

/// When a live region redraws: at most about 30 times a second. A change that comes a frame or
/// more after the last drawing is drawn at once; changes that come sooner wait for the frame's
/// end and are drawn together. ps-render's terminal loop and ps-send's rendered reply both pace
/// their drawing with it.
public struct FramePacer {
    /// About 30 frames a second.
    public static let interval = 0.033

    private var lastFrame = -Double.infinity
    /// Whether a change waits to be drawn.
    public private(set) var pending = false

    public init() {}

    /// Something changed that the next drawing shows.
    public mutating func changed() { pending = true }

    /// Whether to draw now, taking the frame when so: when a change waits and the last frame is
    /// over, or `force`d.
    public mutating func takeFrame(force: Bool = false) -> Bool {
        guard pending else { return false }
        let now = MonotonicClock.now
        guard force || now - lastFrame >= Self.interval else { return false }
        lastFrame = now
        pending = false
        return true
    }

    /// Milliseconds until a waiting change is due (for poll), rounded up; -1 when none waits.
    public func millisecondsToWait() -> Int32 {
        guard pending else { return -1 }
        let left = Self.interval - (MonotonicClock.now - lastFrame)
        return left > 0 ? Int32(left * 1000) + 1 : 0
    }
}
