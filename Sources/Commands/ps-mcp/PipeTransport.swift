import Foundation
import Logging
import MCP

/// MCP over a server's standard input and output, a JSON-RPC message a line. Written here rather
/// than the SDK's StdioTransport, which searches its whole buffer again for each 4 KiB read
/// (a result of megabytes then takes minutes) and holds a line of any length: this one reads on a
/// thread of its own, searches only new bytes, and holds at most `maxLine` bytes of a line. A
/// longer line ends the connection (`overflowed`), as a server that sends one cannot be read.
actor PipeTransport: Transport {
    nonisolated let logger = Logger(label: "ps-mcp.pipe", factory: { _ in SwiftLogNoOpLogHandler() })
    static let maxLine = 8 << 20

    private let input: Int32
    private let output: Int32
    private let messages: AsyncThrowingStream<Data, Error>
    private let continuation: AsyncThrowingStream<Data, Error>.Continuation
    private let state = ReaderState()

    /// Reads the server's stdout (`input`), writes its stdin (`output`).
    init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
        (messages, continuation) = AsyncThrowingStream.makeStream()
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
    }

    /// Whether the server sent a line longer than `maxLine`.
    nonisolated var overflowed: Bool { state.overflowed }

    func connect() async throws {
        let (input, continuation, state) = (self.input, self.continuation, self.state)
        let reader = Thread {
            var line = Data()
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = read(input, &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                var start = 0
                while let newline = chunk[start..<count].firstIndex(of: 0x0A) {
                    line.append(contentsOf: chunk[start..<newline])
                    if !line.isEmpty { continuation.yield(line) }
                    line = Data()
                    start = newline + 1
                }
                line.append(contentsOf: chunk[start..<count])
                if line.count > Self.maxLine {
                    state.overflowed = true
                    break
                }
            }
            continuation.finish()
        }
        reader.start()
    }

    func disconnect() async {
        close(output)
        continuation.finish()
    }

    func send(_ data: Data) async throws {
        var remaining = data + [0x0A]
        while !remaining.isEmpty {
            let written = remaining.withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
            if written > 0 {
                remaining.removeFirst(written)
            } else if written < 0 && (errno == EAGAIN || errno == EINTR) {
                try await Task.sleep(nanoseconds: 10_000_000)
            } else {
                throw MCPError.transportError(POSIXError(.EPIPE))
            }
        }
    }

    nonisolated func receive() -> AsyncThrowingStream<Data, Error> { messages }
}

private final class ReaderState: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var overflowed: Bool {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
