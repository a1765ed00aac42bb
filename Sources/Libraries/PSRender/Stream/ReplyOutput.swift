import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// Where a command that receives a reply as a raw event stream (ps-send, ps-agents ask) puts it:
/// the bytes unchanged (the byte contract, for a pipe), or shown as `| ps-sse | ps-parts |
/// ps-render` would show them (for a person at a terminal).
public protocol ReplyOutput: AnyObject {
    /// Writes more of the stream. Throws ReplyOutputClosed when stdout's reader has gone.
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// Draws what waits to be drawn; called now and then while the stream is idle.
    func tick()
    /// The stream ended: writes the rest; throws the status rendering ends with. Only the first
    /// call does anything.
    func finish() throws
}

extension ReplyOutput {
    /// Ends the output when the command fails anyway: its own error is the one to report.
    public func close() { try? finish() }

    /// Makes room for a line on the terminal from another writer (stderr): a live display
    /// takes its live region off the screen, to draw it again below that line.
    public func makeRoomForLine() {
        (self as? RenderedReplyOutput)?.clearLiveRegion()
        (self as? CollectingReplyOutput)?.output.makeRoomForLine()
    }
}

/// A reply's stream on its way to another output, rebuilt as it passes (ReplyCollector, as
/// `ps-parts --final` rebuilds the same bytes): ps-send --archive keeps the reply it wrote.
public final class CollectingReplyOutput: ReplyOutput {
    public let output: ReplyOutput
    private let collector = ReplyCollector()

    public init(_ output: ReplyOutput) { self.output = output }

    /// The bytes go out first; what the collector cannot read only leaves it without a reply.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        try output.write(bytes)
        try? collector.feed(bytes)
    }

    public func tick() { output.tick() }

    public func finish() throws { try output.finish() }

    /// The reply, when its stream ended properly (a reply cut short, stopped or without its
    /// finish is none), as ps-parts --final writes it: without the mark ReplyCollector gives
    /// a reply that waits for a tool, for a conversation the client keeps.
    public var wholeReply: JSON? {
        collector.finish()
        guard case .complete? = collector.status, case .object(var reply)? = collector.reply else { return nil }
        reply["incomplete"] = nil
        return .object(reply)
    }
}

/// Stdout's reader went away (`| head`).
public struct ReplyOutputClosed: Error {}

/// `--raw` or `--render`; neither (nil): rendered on a terminal, raw elsewhere.
public enum ReplyOutputMode: String, CaseIterable, Sendable {
    case raw, render

    public static func makeOutput(_ mode: ReplyOutputMode?) -> ReplyOutput {
        switch mode {
        case .raw: return RawReplyOutput()
        case .render: return RenderedReplyOutput()
        case nil: return Terminal.isTerminal(1) ? RenderedReplyOutput() : RawReplyOutput()
        }
    }
}

/// The one place a reply's raw bytes are written to stdout: unchanged into a pipe (the byte
/// contract); on a terminal (`--raw`) through TerminalGuardedOutput, so that a server's escape
/// sequences (OSC 52 writing the clipboard, a cleared screen, bidi overrides) are shown, not obeyed.
public final class RawReplyOutput: ReplyOutput {
    private let terminal = TerminalGuardedOutput(fd: 1)
    private var finished = false

    public init() {}

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        if terminal.guarding {
            try terminal.filter(bytes).withUnsafeBytes(Self.writeOut)
        } else {
            try Self.writeOut(bytes)
        }
    }

    private static func writeOut(_ bytes: UnsafeRawBufferPointer) throws {
        let error = FileDescriptorOutput.writeAll(fd: 1, bytes)
        if error == EPIPE { throw ReplyOutputClosed() }
        if error != 0 { throw ToolError(.failure, "cannot write output: \(String(cString: strerror(error)))") }
    }

    public func tick() {}

    /// A character cut short at the very end is written as the guard shows it.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        if terminal.guarding { try terminal.finish().withUnsafeBytes(Self.writeOut) }
    }
}

/// Set by the SIGWINCH handler; the next draw takes it.
nonisolated(unsafe) private var windowChanged: sig_atomic_t = 0

/// The reply rendered as ps-render renders it by default: ansi where colour is on, live (each
/// word as it arrives, redrawn at most about 30 times a second) on a terminal.
public final class RenderedReplyOutput: ReplyOutput {
    private let writer = RecordWriter(fd: 1)
    private let pipeline: EventStreamRenderer
    private let region: LiveRegion?
    private let widthFollowsWindow: Bool
    private var pacer = FramePacer()
    private var finished = false

    public init(environment: [String: String] = Environment.current) {
        var options = RenderOptions(
            format: Terminal.colorEnabled(fd: 1, environment: environment) ? .ansi : .plain,
            width: Terminal.width(fd: 1, environment: environment),
            links: LinkStyle.forTerminal(environment: environment))
        options.showUsage = Terminal.isTerminal(1)
        let writer = self.writer
        let renderer: RecordRenderer
        if Terminal.isTerminal(1) {
            let window = Terminal.windowSize(fd: 1) ?? (80, 24)
            let region = LiveRegion(
                size: LiveRegion.Size(columns: window.columns, rows: window.rows), ansi: options.format == .ansi
            ) { try writer.writeText($0) }
            renderer = RecordRenderer(options: options, text: { region.append($0) })
            renderer.live = region
            self.region = region
            signal(SIGWINCH) { _ in windowChanged = 1 }
        } else {
            renderer = RecordRenderer(options: options) { try writer.writeRaw($0) }
            region = nil
        }
        widthFollowsWindow = region != nil && Terminal.widthFollowsTerminal(environment: environment)
        pipeline = EventStreamRenderer(renderer: renderer)
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard !finished else { return }
        try closedOnBrokenPipe { try pipeline.feed(bytes) }
        pacer.changed()
        try closedOnBrokenPipe { try draw(force: region == nil) }
    }

    public func tick() {
        try? draw(force: false)
    }

    /// Draws what waits, then takes the live region off the screen (`makeRoomForLine`).
    func clearLiveRegion() {
        try? draw(force: true)
        try? region?.clear()
    }

    public func finish() throws {
        guard !finished else { return }
        finished = true
        takeResize()
        try pipeline.finish()
    }

    private func draw(force: Bool) throws {
        if takeResize() { pacer.changed() }
        guard pacer.takeFrame(force: force) else { return }
        try pipeline.renderer.flush()
    }

    @discardableResult
    private func takeResize() -> Bool {
        guard let region, windowChanged != 0 else { return false }
        windowChanged = 0
        let window = Terminal.windowSize(fd: 1) ?? (region.size.columns, region.size.rows)
        region.resize(LiveRegion.Size(columns: window.columns, rows: window.rows))
        if widthFollowsWindow { pipeline.renderer.resize(width: window.columns) }
        return true
    }

    private func closedOnBrokenPipe(_ body: () throws -> Void) throws {
        do { try body() } catch let request as ExitRequest where request.status == .brokenPipe { throw ReplyOutputClosed() }
    }
}
