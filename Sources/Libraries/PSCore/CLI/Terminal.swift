#if canImport(Glibc)
import Glibc
#endif

/// What we know about the terminal, if any, on each stream.
public enum Terminal {
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Colour on `fd`: never with NO_COLOR (any non-empty value), always with CLICOLOR_FORCE,
    /// otherwise only on a terminal.
    public static func colorEnabled(fd: Int32 = 1, environment: [String: String] = Environment.current) -> Bool {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" { return true }
        return isTerminal(fd)
    }

    /// The widths text is wrapped to: anything wider or narrower is clamped into this range, so
    /// a wild COLUMNS cannot make a renderer allocate lines of billions of columns.
    public static let widthRange = 10...1000

    /// Width to wrap to: COLUMNS (a positive number; clamped to `widthRange`), then the terminal's
    /// width, then 80.
    public static func width(fd: Int32 = 1, environment: [String: String] = Environment.current) -> Int {
        if let columns = columnsSetting(environment) { return columns }
        return windowSize(fd: fd).map { clampedWidth($0.columns) } ?? 80
    }

    /// COLUMNS when it is a positive number, clamped.
    private static func columnsSetting(_ environment: [String: String]) -> Int? {
        guard let columns = environment["COLUMNS"]?.trimmingSpaces, !columns.isEmpty,
            columns.allSatisfy({ $0.isASCII && $0.isNumber }), columns.contains(where: { $0 != "0" })
        else { return nil }
        // Digits only: a value too big for Int is simply the widest width.
        return Int(columns).map(clampedWidth) ?? widthRange.upperBound
    }

    /// The terminal's size on `fd`, if it is a terminal that knows it.
    public static func windowSize(fd: Int32 = 1) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Whether the width to wrap to follows the terminal's (COLUMNS does not set it).
    public static func widthFollowsTerminal(environment: [String: String] = Environment.current) -> Bool {
        columnsSetting(environment) == nil
    }

    public static func clampedWidth(_ width: Int) -> Int {
        min(max(width, widthRange.lowerBound), widthRange.upperBound)
    }

    /// For commands that read stdin: a terminal there with nothing piped in means the user did not
    /// know how to use us. Say how, rather than wait silently.
    public static func refuseInteractiveStdin(usage: String) throws {
        if isTerminal(0) {
            throw ToolError(.usage, "reads from standard input, which is a terminal.\n\(usage)")
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}

public enum Environment {
    public static var current: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let pair = String(cString: entry)
            if let equals = pair.firstIndex(of: "=") {
                result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }

    public static func value(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        return String(cString: raw)
    }
}
