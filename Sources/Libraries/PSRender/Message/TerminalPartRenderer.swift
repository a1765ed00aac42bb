import PSCore

/// Message parts for the ansi and plain formats.
struct TerminalPartRenderer {
    let options: RenderOptions

    private var ansi: Bool { options.ansi }
    private var width: Int { options.width }

    private func styled(_ change: (inout TextStyle) -> Void) -> TextStyle {
        var style = TextStyle.plain
        if ansi { change(&style) }
        return style
    }

    /// `── Assistant ─────…`, the line that starts every message.
    func header(role: String) -> [StyledLine] {
        let name = role.isEmpty ? "Message" : role.prefix(1).uppercased() + role.dropFirst()
        let color: TextColor = role == "user" ? .cyan : role == "assistant" ? .magenta : .yellow
        let label = "── " + name.withoutControlCharacters + " "
        let rule = String(repeating: "─", count: max(2, width - DisplayWidth.of(label)))
        return [[Span(label, styled { $0.bold = true; $0.color = color }), Span(rule, styled { $0.dim = true })]]
    }

    /// `stream` gives the incremental renderer of a text that is growing or, once it is finished,
    /// of the text that grew (a new one for a text that never streamed). The first `skip`
    /// lines of such a text are left out (the caller has them: at most the `settled` lines of the
    /// previous render, which only growing texts have).
    /// With `preview`, a growing text shows its last line too, before its newline (for a live
    /// display; nothing of it is final).
    /// With `sink`, a finished text gives its lines to it block by block as they are made (and
    /// the block returned has none of them); other parts return their lines as always.
    func part(_ part: JSONObject, finished: Bool, skip: Int = 0, preview: Bool = false, sink: LineSink? = nil,
              stream: (MarkdownRenderer) -> MarkdownStream) -> RenderedBlock {
        func markdown(_ renderer: MarkdownRenderer, prefix: StyledLine? = nil) -> RenderedBlock {
            let text = part["text"]?.stringValue ?? ""
            // A text that streamed is finished by its stream: its committed blocks are not rendered again.
            if finished, let sink {
                stream(renderer).finish(text, skip: skip, into: prefix.map { sink.prefixed(first: $0, rest: $0) } ?? sink)
                return RenderedBlock()
            }
            let block = finished ? stream(renderer).finish(text, skip: skip)
                : preview ? stream(renderer).preview(text, skip: skip) : stream(renderer).render(text, skip: skip)
            return prefix.map { block.prefixed(first: $0, rest: $0) } ?? block
        }
        switch PartKind(part) {
        case .text:
            return markdown(MarkdownRenderer(ansi: ansi, width: width, links: options.links))
        case .reasoning:
            guard options.showReasoning else { return RenderedBlock() }
            let style = styled { $0.dim = true; $0.italic = true }
            let bar: StyledLine = [Span("┊ ", styled { $0.dim = true })]
            // The same bar on every line, so leaving lines out changes nothing.
            return markdown(MarkdownRenderer(ansi: ansi, width: width - 2, base: style, links: options.links), prefix: bar)
        case .stepStart, .hiddenTool:
            return RenderedBlock()
        case .tool(let name):
            return tool(ToolCall(part, name: name))
        case .sourceURL:
            let title = part["title"]?.stringValue
            let url = part["url"]?.stringValue ?? ""
            return .final(item(mark: "↗", label: "source", text: title, url: url))
        case .sourceDocument:
            let title = part["title"]?.stringValue ?? part["filename"]?.stringValue ?? "document"
            let type = part["mediaType"]?.stringValue.map { " (\($0))" } ?? ""
            return .final(item(mark: "↗", label: "source", text: title + type, url: nil))
        case .file:
            let name = part["filename"]?.stringValue ?? "file"
            let type = part["mediaType"]?.stringValue.map { " (\($0))" } ?? ""
            let url = part["url"]?.stringValue ?? ""
            // Inline data URLs can be megabytes of base64: not something to print.
            return .final(item(mark: "▤", label: "file", text: name + type, url: url.hasPrefix("data:") ? nil : url))
        case .data(let name):
            return .final(data(name: name, value: part["data"] ?? .null))
        case .other:
            return RenderedBlock()
        }
    }

    private func item(mark: String, label: String, text: String?, url: String?) -> [StyledLine] {
        var pieces: [InlinePiece] = [.text(mark + " ", styled { $0.color = .blue }), .text(label + ": ", styled { $0.dim = true })]
        let shown = (text?.isEmpty == false ? text! : url ?? "").withoutControlCharacters
        var linkStyle = styled { $0.underline = url != nil }
        if options.hyperlinks, let url { linkStyle.link = url }
        pieces.append(.text(shown, linkStyle))
        if !options.hyperlinks, let url, shown != url {
            pieces.append(.text(" <" + url.withoutControlCharacters + ">", styled { $0.dim = true }))
        }
        return Wrapper.wrap(pieces, width: width)
    }

    private func data(name: String, value: JSON) -> [StyledLine] {
        let label: StyledLine = [Span("◆ ", styled { $0.color = .blue }), Span("data-" + name.withoutControlCharacters, styled { $0.dim = true })]
        if options.tools == .full {
            return [label] + JSONText.pretty(value).flatMap { indented($0, by: 4, style: .plain) }
        }
        return [truncated(label + [Span(" " + JSONText.compact(value).withoutControlCharacters, styled { $0.dim = true })])]
    }

    private func tool(_ call: ToolCall) -> RenderedBlock {
        let stateStyle = styled { $0.color = call.failed ? .red : call.succeeded ? .green : .yellow }
        var line: StyledLine = [
            Span("⚙ ", styled { $0.color = .blue }), Span(call.name.withoutControlCharacters, styled { $0.bold = true }),
            Span(" · ", styled { $0.dim = true }), Span(call.stateLabel, stateStyle),
        ]
        var lines: [StyledLine] = []
        if let questions = call.questions {
            // A question to the user is shown whole, whatever the tools setting.
            lines.append(line)
            for question in questions {
                let (text, options) = question.lines
                lines += Wrapper.wrap([.text("? " + text.withoutControlCharacters, styled { $0.bold = true })], width: width - 2)
                    .map { [Span("  ")] + $0 }
                for option in options {
                    lines += Wrapper.wrap([.text(option.withoutControlCharacters, .plain)], width: width - 4).map { [Span("    ")] + $0 }
                }
            }
            for answer in call.answers {
                lines += Wrapper.wrap([.text("answer: " + answer.withoutControlCharacters, styled { $0.color = .green })], width: width - 2)
                    .map { [Span("  ")] + $0 }
            }
        } else if options.tools == .compact {
            if !call.compactInput.isEmpty {
                line += [Span(" · ", styled { $0.dim = true }), Span(call.compactInput.withoutControlCharacters, styled { $0.dim = true })]
            }
            lines.append(truncated(line))
        } else {
            lines.append(line)
            if let input = call.input {
                lines.append([Span("  input:", styled { $0.dim = true })])
                lines += JSONText.pretty(input).flatMap { indented($0, by: 4, style: .plain) }
            }
            if let output = call.output {
                lines.append([Span("  output:", styled { $0.dim = true })])
                let text = output.stringValue.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
                lines += (text ?? JSONText.pretty(output)).flatMap { indented($0, by: 4, style: .plain) }
            }
        }
        if let error = call.errorText {
            let errorStyle = styled { $0.color = .red }
            lines += Wrapper.wrap([.text("error: " + error.withoutControlCharacters, errorStyle)], width: width - 2)
                .map { [Span("  ")] + $0 }
        }
        return .final(lines)
    }

    /// One line cut to the width with an ellipsis.
    private func truncated(_ line: StyledLine) -> StyledLine {
        guard line.displayWidth > width else { return line }
        let (cut, style) = line.cut(toColumns: width - 1)
        return style.map { cut + [Span("…", $0)] } ?? cut
    }

    private func indented(_ text: String, by count: Int, style: TextStyle) -> [StyledLine] {
        let pad = Span(String(repeating: " ", count: count))
        let body = BlockRenderer(ansi: ansi, base: style, growth: GrowthState(text: "", growing: false))
            .hardWrap(text, width: width - count, style: style)
        return body.map { $0.isEmpty ? [] : [pad] + $0 }
    }

    func incompleteNotice(reason: String, detail: String?) -> [StyledLine] {
        let text = "⚠ incomplete: " + reason + (detail.map { " — " + $0 } ?? "")
        return Wrapper.wrap([.text(text.withoutControlCharacters, styled { $0.color = .yellow; $0.bold = true })], width: width)
    }

    func streamError(_ text: String) -> [StyledLine] {
        Wrapper.wrap([.text(("✗ error: " + text).withoutControlCharacters, styled { $0.color = .red; $0.bold = true })], width: width)
    }
}
