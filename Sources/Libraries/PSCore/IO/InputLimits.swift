#if canImport(Glibc)
import Glibc
#endif

/// The most one line, event or record may hold, for every reader of a stream: a line of a pipe
/// or file, an SSE line and an event's data across its `data:` lines, an NDJSON record, a line
/// or event of a server's streaming answer. Readers keep at most this much of any one unit, so
/// memory stays flat in the length of a stream whatever a pipe or server sends.
///
/// The default, 64 MiB, is far above any real record (a long reply is a few hundred KiB; a
/// history record with inline image attachments a few MiB) and low enough that the few copies
/// a reader makes of one record stay within a few hundred MiB. `--max-record-size` or
/// `PS_MAX_RECORD_MIB` raise (or lower) it.
public struct InputLimits: Sendable, Equatable {
    /// The most bytes one line, event or record may hold.
    public var maxRecordBytes: Int

    public static let defaultMiB = 64
    public static let environmentVariable = "PS_MAX_RECORD_MIB"
    public static let flag = "--max-record-size"

    public init(maxRecordBytes: Int) { self.maxRecordBytes = max(1, maxRecordBytes) }

    public init(mebibytes: Int) { self.init(maxRecordBytes: mebibytes.multipliedReportingOverflow(by: 1 << 20).overflow ? Int.max : mebibytes << 20) }

    /// The limits a command runs with: set once from its flag before it reads anything.
    nonisolated(unsafe) public static var current = fromEnvironment()

    /// PS_MAX_RECORD_MIB when it is a positive whole number, the default otherwise (a command
    /// refuses any other value before it runs: `environmentProblem`).
    public static func fromEnvironment() -> InputLimits {
        if let text = environmentValue, let mib = Int(text), mib > 0 {
            return InputLimits(mebibytes: mib)
        }
        return InputLimits(mebibytes: defaultMiB)
    }

    /// Why PS_MAX_RECORD_MIB cannot be used, when it is set (not empty) to anything but a
    /// positive whole number of MiB: a mistyped cap must not silently become the default.
    public static func environmentProblem() -> String? {
        guard let text = environmentValue, !text.isEmpty else { return nil }
        if let mib = Int(text), mib > 0 { return nil }
        return "\(environmentVariable)=\(text) is not a positive whole number of MiB (unset it for the default, \(defaultMiB))"
    }

    static var environmentValue: String? { getenv(environmentVariable).map { String(cString: $0) } }

    /// The cap for messages: "64 MiB", or bytes when under one MiB (a lowered test cap).
    public var description: String {
        maxRecordBytes >= 1 << 20 && maxRecordBytes % (1 << 20) == 0
            ? "\(maxRecordBytes >> 20) MiB" : "\(maxRecordBytes) bytes"
    }

    /// The error for a unit past the cap: `what` names it ("stdin: line 3", "event 2").
    public func tooLong(_ what: String, status: ExitStatus = .malformedInput) -> ToolError {
        ToolError(status, "\(what) is longer than \(description) (raise with \(Self.flag) MiB or \(Self.environmentVariable))")
    }
}

/// Thrown by a parser when a line or event passes the cap; the reader turns it into its message
/// (it knows the input's name, and whether a pipe or a server sent it).
public struct RecordTooLong: Error, Sendable, Equatable {
    /// What passed the cap.
    public enum Unit: String, Sendable { case line, event }
    public let unit: Unit
    /// The 1-based number of the line (or the line the event began on).
    public let number: Int
    public let limits: InputLimits

    public init(_ unit: Unit, number: Int, limits: InputLimits) {
        self.unit = unit
        self.number = number
        self.limits = limits
    }

    /// The message for input read from `name` (exit 3).
    public func inputError(_ name: String) -> ToolError {
        limits.tooLong("\(name): \(unitText)")
    }

    /// The message for a server's answer (exit 8).
    public func serverError() -> ToolError {
        limits.tooLong("the server's answer: \(unitText)", status: .serverError)
    }

    var unitText: String { unit == .line ? "line \(number)" : "the event begun on line \(number)" }
}
