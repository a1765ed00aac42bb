import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// Opening a web page for the user, as `gh auth login` does: with `xdg-open`, only where a
/// browser can show it (a graphical session: DISPLAY or WAYLAND_DISPLAY) and never over SSH
/// (SSH_CONNECTION or SSH_TTY set: the browser would open on the far machine, if anywhere).
/// Only an http(s) URL is opened, as the one argument of xdg-open.
public enum Browser {
    /// The xdg-open on PATH to run here, or nil when no browser can be opened here.
    public static func opener(
        environment: [String: String], isExecutable: (String) -> Bool = { access($0, X_OK) == 0 }
    ) -> String? {
        func set(_ key: String) -> Bool { !(environment[key] ?? "").isEmpty }
        guard !set("SSH_CONNECTION"), !set("SSH_TTY"), set("DISPLAY") || set("WAYLAND_DISPLAY") else { return nil }
        for folder in (environment["PATH"] ?? "").split(separator: ":") where folder.hasPrefix("/") {
            let path = String(folder) + "/xdg-open"
            if isExecutable(path) { return path }
        }
        return nil
    }

    /// Whether `url` may be handed to a browser: http(s), nothing a terminal or shell would read
    /// otherwise.
    public static func isOpenable(_ url: String) -> Bool {
        (url.hasPrefix("https://") || url.hasPrefix("http://"))
            && url.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && !($0.value >= 0x80 && $0.value < 0xA0) }
    }

    /// Starts `opener url` with its output thrown away, without waiting for the browser; false
    /// when it could not be started.
    public static func open(_ url: String, with opener: String) -> Bool {
        guard isOpenable(url) else { return false }
        return (try? ChildSpawn.start(opener, arguments: [opener, url], streams: [0: .null, 1: .null, 2: .null])) != nil
    }
}
