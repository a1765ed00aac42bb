import ArgumentParser
import PSCore
import PSRender
#if canImport(Glibc)
import Glibc
#endif

@main
struct PsRender: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-render",
        abstract: "Show chat messages in the terminal: markdown, tool calls and reasoning, as they stream.",
        usage: "ps-render [<options>] [<file>]",
        discussion: """
            Reads NDJSON from ps-parts: part records, which follow one message as it streams, or \
            message records (whole UIMessages from `ps-parts --final` or ps-history; several in a \
            row are a conversation, each turn under a header line). See ps-ndjson(5).

            Text is GitHub Flavored Markdown: headings, emphasis, code, lists and task lists, block \
            quotes, tables with aligned columns, links, rules and footnotes (`[1]` in the text, the \
            notes numbered at the end of it), wrapped to the width; lines of \
            code blocks are never wrapped (they run on past the width, so they paste back as they \
            were). Headings: level 1 bold over a double rule, level 2 bold over a rule, levels 3 \
            to 6 bold after their `###` marker (in ansi the marker dimmed, and from level 4 on \
            italic).

            In ansi, fenced code is coloured by the language named after its fence (GNU \
            source-highlight's definitions: python, sh, json, c, js, ts, go, rust and many more; \
            swift has a definition of ps-render's own), each line as soon as it is complete; other \
            code is yellow. Only styles are added: the code copies as it was written.

            Links are OSC 8 hyperlinks in ansi on terminals known to show them (iTerm2, WezTerm, \
            kitty, foot, Alacritty, Ghostty, VS Code, Windows Terminal, VTE 0.50 and later: \
            GNOME Terminal and others), and `text <url>` everywhere else: in plain, inside tmux \
            or screen (which drop them) and on terminals not known to show them. --links \
            chooses either one. Tool calls show as one line each (name, state, \
            input; an error's text below it), reasoning dimmed under a bar.

            Output is append-only: each finished block is written as soon as it is finished, and \
            nothing is ever redrawn, so the output can scroll, be piped or be logged. The bytes \
            written for a streamed message are the bytes written for the same message given whole.

            On a terminal (ansi or plain), the block still being written is shown live below the \
            finished ones, each word as it arrives: redrawn in place (at most about 30 times a \
            second), its last rows when it is taller than the window, wrapped again when the \
            window is resized, and replaced by its final rendering when it is done. --no-live \
            keeps the append-only output on a terminal too; --live draws the region even when \
            stdout is not a terminal.

            FORMATS:
              ansi      colours and styles; the default on a terminal
              plain     no escape codes; the default when stdout is not
                        a terminal or NO_COLOR is set (CLICOLOR_FORCE=1
                        chooses ansi)
              markdown  a transcript for exports: a heading per turn,
                        text as written (its headings moved below
                        the turn's), tool calls as quoted lines
              text      only the assistant's reply text, written as it
                        arrives, nothing else (for | tee, | say ...)

            EXAMPLES:
              ps-send "Explain SSE" | ps-sse | ps-parts | ps-render
              ps-history --conversation c1 --all | ps-render --format markdown
              ps-parts --final < stream.ndjson | ps-render --tools full
              ps-render --width 60 recorded-parts.ndjson
              ps-send "hi" | ps-sse | ps-parts | ps-render --format text | tee reply.md

            Rendering stops at the first bad line (not JSON, or not a record ps-render knows): what \
            came before it is shown, then one line on stderr says which line and what to do, and \
            the exit status is 3.

            \(ExitStatus.helpText([.success, .failure, .usage, .malformedInput, .incomplete, .brokenPipe]))
            """,
        version: ToolVersion.line)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case auto, ansi, plain, markdown, text
    }

    enum Reasoning: String, ExpressibleByArgument, CaseIterable {
        case show, hide
    }

    enum Links: String, ExpressibleByArgument, CaseIterable {
        case osc8, inline, auto
    }

    @Argument(help: ArgumentHelp("NDJSON records to render (default: standard input).", valueName: "file"))
    var file: String?

    @Option(help: "Output format: auto, ansi, plain, markdown, or text (only the reply's words, as they arrive).")
    var format: Format = .auto

    @Option(help: ArgumentHelp("Columns to wrap to, 10 to 1000 (default: COLUMNS, clamped to that range, then the terminal's width, then 80).", valueName: "n"))
    var width: Int?

    @Option(help: "Tool calls as one-line summaries (compact) or with their whole input and output (full).")
    var tools: ToolDetail = .compact

    @Option(help: "Show reasoning (dimmed) or hide it.")
    var reasoning: Reasoning = .show

    @Option(help: "Links in ansi: osc8 (hyperlinks), inline (`text <url>`), or auto (osc8 where the terminal is known to show them).")
    var links: Links = .auto

    @Option(help: "After a reply, a dim line with its token count where the stream gave one (`1,234 in · 567 out`): show or hide (default: show on a terminal).")
    var usage: Reasoning?

    @Flag(inversion: .prefixedNo, help: "Show the block being written live, redrawn as it grows (default: on a terminal, with ansi or plain).")
    var live: Bool?

    @OptionGroup var recordSize: RecordSizeOption

    static func main() { runAsTool() }

    func validate() throws {
        if let width, !Terminal.widthRange.contains(width) {
            throw ValidationError(
                "--width must be from \(Terminal.widthRange.lowerBound) to \(Terminal.widthRange.upperBound)")
        }
        if live == true && (format == .markdown || format == .text) {
            throw ValidationError("--live draws the ansi and plain formats; --format \(format.rawValue) is written as it is")
        }
    }

    func run() throws {
        recordSize.apply()
        if file == nil || file == "-" {
            try Terminal.refuseInteractiveStdin(usage: "Usage: ps-parts < records.ndjson | ps-render, or ps-render FILE (see ps-render --help).")
        }
        let reader = try ChunkReader.open(path: file)
        var options = RenderOptions(
            format: resolvedFormat, width: width ?? Terminal.width(fd: 1), tools: tools,
            showReasoning: reasoning == .show, links: resolvedLinks)
        options.showUsage = (usage ?? (Terminal.isTerminal(1) ? .show : .hide)) == .show
        let writer = RecordWriter(fd: 1)
        let liveTerminal = useLive ? makeLiveTerminal(reader: reader, options: options, writer: writer) : nil
        let renderer: RecordSink = liveTerminal?.renderer ?? (format == .text
            ? ReplyTextWriter { try writer.writeText($0) }
            : RecordRenderer(options: options) { try writer.writeRaw($0) })
        var splitter = LineSplitter()
        /// The first bad line: rendering stops there (the wrong input would give an error per line).
        struct BadLine: Error { let message: String }

        func handle(_ line: UnsafeRawBufferPointer, _ number: Int) throws {
            var trimmed = line
            while let last = trimmed.last, last == 0x0D || last == 0x20 || last == 0x09 {
                trimmed = UnsafeRawBufferPointer(rebasing: trimmed.dropLast())
            }
            if trimmed.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
            do {
                // Most lines of a streamed message: read without a JSON tree.
                let handled = try PartDeltaRecord.match(trimmed) { index, delta in try renderer.handlePartDelta(index: index, utf8: delta) }
                if !handled {
                    // Other records straight from the bytes too (a whole message is one string
                    // of its text, not a jansson tree and a String besides); jansson for the rest.
                    try renderer.handle(try JSON.parse(trimmed))
                }
            } catch let error as JSONParseError {
                throw BadLine(message: "\(reader.name): line \(number): not JSON: \(error.message)\(Self.hint(trimmed))")
            } catch let error as RecordRenderer.RecordError {
                throw BadLine(message: "\(reader.name): line \(number): \(error.message)")
            }
        }

        // Render once per read: a burst of records costs one render, a slow stream one per record.
        do {
            if let liveTerminal {
                // Drawn at most ~30 times a second: records that arrive in between are drawn together.
                try liveTerminal.run { chunk in try splitter.feed(chunk, handle) }
            } else {
                try reader.forEachChunk { chunk in
                    try splitter.feed(chunk, handle)
                    try renderer.flush()
                }
            }
            try splitter.finish(handle)
        } catch let bad as BadLine {
            // What was good before the bad line is still shown, then the one error.
            try renderer.flush()
            try renderer.finish()
            throw ToolError(.malformedInput, bad.message)
        } catch let tooLong as RecordTooLong {
            try renderer.flush()
            try renderer.finish()
            throw tooLong.inputError(reader.name)
        }
        try renderer.flush()
        try renderer.finish()
        if renderer.sawIncomplete { throw ExitRequest(.incomplete) }
    }

    /// What to do when a line is not JSON at all: raw event streams need ps-sse and ps-parts, and
    /// text (a README, a reply) is not input for ps-render.
    static func hint(_ line: UnsafeRawBufferPointer) -> String {
        let prefixes = ["data:", "event:", "id:", "retry:", ":"]
        if prefixes.contains(where: { line.starts(with: $0.utf8) }) {
            return "; this looks like a raw event stream: pipe it through ps-sse and ps-parts first"
        }
        if line.count > 1, line[1] == UInt8(ascii: ":"), line[0] != UInt8(ascii: "{") {
            return "; this looks like an AI SDK v4 data stream: pipe it through ps-sse and ps-parts first"
        }
        if line.first == UInt8(ascii: "{") || line.first == UInt8(ascii: "[") { return "" }
        return "; ps-render reads NDJSON records from ps-parts or ps-history, not text"
    }

    /// Live on a terminal with ansi or plain, unless --live or --no-live says otherwise.
    private var useLive: Bool {
        guard format != .markdown && format != .text else { return false }
        return live ?? Terminal.isTerminal(1)
    }

    private func makeLiveTerminal(reader: ChunkReader, options: RenderOptions, writer: RecordWriter) -> LiveTerminal {
        let region = LiveRegion(size: LiveTerminal.size(), ansi: options.format == .ansi) { try writer.writeText($0) }
        let renderer = RecordRenderer(options: options, text: { region.append($0) })
        renderer.live = region
        LiveTerminal.installSignalHandlers()
        return LiveTerminal(
            reader: reader, region: region, renderer: renderer,
            widthFollowsWindow: width == nil && Terminal.widthFollowsTerminal() && Terminal.isTerminal(1))
    }

    private var resolvedLinks: LinkStyle {
        switch links {
        case .osc8: return .osc8
        case .inline: return .inline
        case .auto: return LinkStyle.forTerminal(environment: Environment.current)
        }
    }

    private var resolvedFormat: RenderFormat {
        switch format {
        case .ansi: return .ansi
        case .plain: return .plain
        case .markdown: return .markdown
        case .auto, .text: return Terminal.colorEnabled(fd: 1) ? .ansi : .plain
        }
    }
}

extension ToolDetail: ExpressibleByArgument {}

/// What ps-render feeds its records to: the renderer, or the reply-text writer.
protocol RecordSink {
    func handle(_ record: JSON) throws
    /// A part-delta record, as PartDeltaRecord read it (its delta valid UTF-8).
    func handlePartDelta(index: Int, utf8 delta: UnsafeRawBufferPointer) throws
    func flush() throws
    func finish() throws
    var sawIncomplete: Bool { get }
}

extension RecordRenderer: RecordSink {}
extension ReplyTextWriter: RecordSink {
    func handlePartDelta(index: Int, utf8 delta: UnsafeRawBufferPointer) throws {
        let text = String(decoding: delta, as: UTF8.self)
        try handle(.object(JSONObject([("type", "part-delta"), ("index", .integer(Int64(index))), ("delta", .string(text))])))
    }
}
