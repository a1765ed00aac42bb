/// Exit statuses shared by every ps-* command (documented in each man page and ps-tools(7)).
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Everything asked for was done.
    case success = 0
    /// An error that fits no other status: an unreadable file, a full disk.
    case failure = 1
    /// The command line was wrong.
    case usage = 2
    /// The input was not what the command reads (malformed stream, bad JSON line).
    case malformedInput = 3
    /// Authentication is needed: no credential, or the server refused it (401).
    case authenticationNeeded = 4
    /// The server refused the request for this user (403).
    case forbidden = 5
    /// What was asked for does not exist (404).
    case notFound = 6
    /// Rate limited or out of credits (429, 402).
    case rateLimited = 7
    /// The server failed (5xx) or answered something we cannot use.
    case serverError = 8
    /// The server could not be reached, or the connection broke.
    case networkError = 9
    /// A stream ended early: no finish, an error chunk, or an abort.
    case incomplete = 10
    /// The reply ends on a question to the user (PageSpace's ask_user tool call): answer it
    /// with `ps-send --answer`.
    case assistantAsks = 11
    /// The answer was written, but keeping it in the archive failed (ps-send and ps-batch
    /// with `--archive`, or `"archive": true` in config.json).
    case notArchived = 12
    /// Interrupted by a signal (Ctrl-C): 128 + SIGINT.
    case interrupted = 130
    /// The reader of our output went away (`| head`): 128 + SIGPIPE, and nothing is printed.
    case brokenPipe = 141

    public var summary: String {
        switch self {
        case .success: return "success"
        case .failure: return "other error (I/O, disk full)"
        case .usage: return "usage error"
        case .malformedInput: return "malformed input"
        case .authenticationNeeded: return "authentication needed"
        case .forbidden: return "forbidden"
        case .notFound: return "not found"
        case .rateLimited: return "rate limited or out of credits"
        case .serverError: return "server error"
        case .networkError: return "network error"
        case .incomplete: return "stream incomplete (no finish, error or abort)"
        case .assistantAsks: return "the assistant asks a question (ps-send --answer)"
        case .notArchived: return "the answer was written but not archived (--archive)"
        case .interrupted: return "interrupted"
        case .brokenPipe: return "output closed by its reader"
        }
    }
}

/// An error a command reports as one line on stderr, with the exit status that goes with it.
public struct ToolError: Error, CustomStringConvertible, Sendable {
    public let status: ExitStatus
    public let message: String

    public init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { message }
}

/// Ends a command with `status` and says nothing more: what there was to say was said (the
/// incomplete stream was reported), or nothing should be (the reader of our output went away).
/// Thrown up to `runAsTool`, which alone ends the process.
public struct ExitRequest: Error, Sendable {
    public let status: ExitStatus

    public init(_ status: ExitStatus) { self.status = status }
}

extension ExitStatus {
    /// The exit status table for a command's help and man page (put it in the command's
    /// `discussion`, so `--help` and the generated man page say the same).
    public static func helpText(_ statuses: [ExitStatus]) -> String {
        var lines = ["EXIT STATUS:"]
        for status in statuses {
            let code = String(status.rawValue)
            lines.append("  " + code + String(repeating: " ", count: max(1, 5 - code.count)) + status.summary)
        }
        return lines.joined(separator: "\n")
    }
}
