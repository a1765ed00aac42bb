/// How links show in the ansi format (plain always shows `text <url>`).
public enum LinkStyle: String, CaseIterable, Sendable {
    /// OSC 8 hyperlinks: the text is clickable, the URL is not printed.
    case osc8
    /// The URL in angle brackets after the text, as in plain: `text <url>`.
    case inline

    /// OSC 8 only where the terminal described by `environment` is known to show it; everywhere
    /// else inline, so that a URL is never lost to a terminal that drops the sequence.
    ///
    /// A multiplexer (tmux, screen) sits between the program and the terminal and drops OSC 8
    /// unless told otherwise, so it wins over what the outer terminal would do.
    public static func forTerminal(environment: [String: String]) -> LinkStyle {
        func value(_ name: String) -> String { environment[name] ?? "" }
        let term = value("TERM")
        if !value("TMUX").isEmpty || term.hasPrefix("tmux") || term.hasPrefix("screen") { return .inline }
        if knownPrograms.contains(value("TERM_PROGRAM")) { return .osc8 }
        // VTE (GNOME Terminal, Tilix, Terminator, ...) shows them from 0.50, VTE_VERSION 5000.
        if let vte = Int(value("VTE_VERSION")), vte >= 5000 { return .osc8 }
        if !value("KITTY_WINDOW_ID").isEmpty || !value("WT_SESSION").isEmpty { return .osc8 }
        if knownTermPrefixes.contains(where: { term.hasPrefix($0) }) { return .osc8 }
        return .inline
    }

    /// TERM_PROGRAM values of terminals that show OSC 8 hyperlinks.
    static let knownPrograms: Set<String> = [
        "iTerm.app", "WezTerm", "vscode", "ghostty", "Hyper", "Tabby", "rio", "mintty", "DomTerm",
    ]

    /// TERM values (as prefixes) of terminals that show OSC 8 hyperlinks.
    static let knownTermPrefixes = ["xterm-kitty", "xterm-ghostty", "foot", "alacritty", "wezterm", "contour"]
}
