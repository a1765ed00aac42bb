import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// Reading passwords and tokens: from the terminal without echo, or from stdin. Never from
/// the command line, where `ps` would show them.
public enum SecretInput {
    /// Asks on the controlling terminal with echo off.
    public static func fromTerminal(prompt: String, keepSpaces: Bool = false) throws -> String {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            throw ToolError(.usage, "no terminal to ask for the secret on; pipe it in instead (see --help)")
        }
        defer { close(fd) }
        FileDescriptorOutput.writeAll(fd: fd, Array(prompt.utf8))
        var saved = termios()
        let haveTermios = tcgetattr(fd, &saved) == 0
        if haveTermios {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(fd, TCSAFLUSH, &quiet)
        }
        defer {
            if haveTermios { tcsetattr(fd, TCSAFLUSH, &saved) }
            FileDescriptorOutput.writeAll(fd: fd, [0x0A])
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1, byte != 0x0A { line.append(byte) }
        // Ctrl-C at the prompt: never go on with half a password.
        if Interrupt.isRequested { throw ToolError(.interrupted, "interrupted") }
        if keepSpaces {
            if line.last == 0x0D { line.removeLast() }
            return String(decoding: line, as: UTF8.self)
        }
        return trimmed(line)
    }

    /// The first line of stdin (a token file, `printf %s "$PASSWORD" |`).
    /// A password keeps its spaces (only the line end goes); a token is trimmed.
    public static func fromStandardInput(keepSpaces: Bool = false) throws -> String {
        var bytes: [UInt8] = []
        try ChunkReader(fd: 0, name: "stdin").forEachChunk { chunk in
            bytes.append(contentsOf: chunk)
            if bytes.count > 1 << 20 { throw ToolError(.usage, "stdin holds more than a secret (over 1 MiB)") }
        }
        let firstLine = bytes.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        guard keepSpaces else { return trimmed(Array(firstLine)) }
        var line = Array(firstLine)
        if line.last == 0x0D { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }

    static func trimmed(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).trimmingSpaces
    }
}
