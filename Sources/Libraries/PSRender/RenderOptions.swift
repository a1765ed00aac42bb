import PSCore

/// The output formats of ps-render.
public enum RenderFormat: String, CaseIterable, Sendable {
    /// Styles and colours with ANSI escape codes, OSC 8 hyperlinks.
    case ansi
    /// Text with no escape codes at all.
    case plain
    /// A markdown transcript, for exports.
    case markdown
}

/// How much of a tool call to show.
public enum ToolDetail: String, CaseIterable, Sendable {
    /// One line: name, state, short input; an error's text below it.
    case compact
    /// The whole input and output.
    case full
}

public struct RenderOptions: Sendable {
    public var format: RenderFormat
    /// Columns to wrap to (ansi and plain).
    public var width: Int
    public var tools: ToolDetail
    public var showReasoning: Bool
    /// How links show in ansi (plain always has `text <url>`).
    public var links: LinkStyle
    /// A dim line with the reply's token count after it, where the stream gave one.
    public var showUsage = false

    public init(format: RenderFormat = .plain, width: Int = 80, tools: ToolDetail = .compact, showReasoning: Bool = true,
                links: LinkStyle = .osc8) {
        self.format = format
        self.width = Terminal.clampedWidth(width)
        self.tools = tools
        self.showReasoning = showReasoning
        self.links = links
    }

    var ansi: Bool { format == .ansi }
    /// Links are OSC 8 hyperlinks (ansi with `links` osc8); otherwise their URL is printed.
    var hyperlinks: Bool { ansi && links == .osc8 }
}
