import PSCore
import PSRender
#if canImport(Glibc)
import Glibc
#endif

/// Set by the SIGWINCH handler; the read loop takes it.
nonisolated(unsafe) private var windowChanged: sig_atomic_t = 0
/// Whether a live region may be on the screen (the interrupt handler then ends its line).
nonisolated(unsafe) private var regionOnScreen: sig_atomic_t = 0
/// What an interrupt writes before the process ends: made before any handler is installed.
nonisolated(unsafe) private var restoreBytes: UnsafeMutableBufferPointer<UInt8>?

/// ps-render's loop on a terminal with a live region: reads records as they come, and redraws at
/// the pace of a FramePacer. A resize redraws at the new size; an interrupt leaves the terminal
/// sane.
struct LiveTerminal {
    let reader: ChunkReader
    let region: LiveRegion
    let renderer: RecordRenderer
    /// Whether the width to wrap to follows the window's.
    let widthFollowsWindow: Bool

    static func installSignalHandlers() {
        let text = Array((LiveRegion.restore + "\r\n").utf8)
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.count)
        _ = bytes.initialize(from: text)
        restoreBytes = bytes
        signal(SIGWINCH) { _ in windowChanged = 1 }
        for interrupt in [SIGINT, SIGTERM, SIGHUP] {
            signal(interrupt) { number in
                if regionOnScreen != 0, let bytes = restoreBytes {
                    _ = write(1, bytes.baseAddress, bytes.count)
                }
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }

    static func size(fd: Int32 = 1) -> LiveRegion.Size {
        let window = Terminal.windowSize(fd: fd) ?? (80, 24)
        return LiveRegion.Size(columns: window.columns, rows: window.rows)
    }

    /// Feeds each chunk to `take`, drawing between chunks; returns at the end of input.
    func run(take: (UnsafeRawBufferPointer) throws -> Void) throws {
        var pacer = FramePacer()
        while true {
            if takeResize() { pacer.changed() }
            if pacer.takeFrame() { try draw() }
            var descriptor = pollfd(fd: reader.fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, pacer.millisecondsToWait())
            if ready < 0 {
                if errno == EINTR { continue }
                throw ToolError(.failure, "cannot read \(reader.name): \(String(cString: strerror(errno)))")
            }
            guard ready > 0 else { continue }
            // A resize that came with the input (the handler ran as poll returned) applies to
            // that input: it was signalled first.
            if takeResize() { pacer.changed() }
            guard try reader.readChunk(take) else { return }
            pacer.changed()
        }
    }

    /// Follows the window's new size, if it changed since the last look.
    private func takeResize() -> Bool {
        guard windowChanged != 0 else { return false }
        windowChanged = 0
        let size = Self.size()
        region.resize(size)
        if widthFollowsWindow { renderer.resize(width: size.columns) }
        return true
    }

    func draw() throws {
        // Set first: an interrupt may come while the frame is being written.
        regionOnScreen = 1
        try renderer.flush()
    }
}
