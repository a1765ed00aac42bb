#if canImport(Glibc)
import Glibc
#endif

/// Messages for stderr, prefixed with the command's name. Never use these for secrets.
public enum Diagnostics {
    /// The name used as prefix ("ps-sse"), taken from argv[0].
    public static var programName: String = {
        let path = CommandLine.arguments.first ?? "ps-tools"
        return String(path.split(separator: "/").last ?? Substring(path))
    }()

    public static func error(_ message: String) {
        writeLine("\(programName): \(message)")
    }

    public static func warning(_ message: String) {
        writeLine("\(programName): warning: \(message)")
    }

    /// Writes one line to stderr, unbuffered. Everything goes through `TerminalSafeText`: a
    /// message may quote a server's error body or a record's text.
    public static func writeLine(_ line: String) {
        var bytes = Array(TerminalSafeText.sanitize(line).utf8)
        bytes.append(0x0A)
        FileDescriptorOutput.writeAll(fd: 2, bytes)
    }
}
