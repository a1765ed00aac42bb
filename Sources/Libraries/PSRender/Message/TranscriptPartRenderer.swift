import PSCore

/// Message parts for the markdown format: a transcript that reads well as a .md file. Text parts
/// are the model's own markdown, line for line; tool calls become quoted summaries or fenced JSON.
struct TranscriptPartRenderer {
    let options: RenderOptions

    /// The level of the heading each turn starts with; the headings of its text go below it.
    static let turnHeadingLevel = 2

    func header(role: String) -> [StyledLine] {
        let name = role.isEmpty ? "Message" : role.prefix(1).uppercased() + role.dropFirst()
        return [line(String(repeating: "#", count: Self.turnHeadingLevel) + " " + name.withoutControlCharacters)]
    }

    /// `stream` gives the lines of a text that is still growing. The first `skip` lines of such a
    /// text are left out (the caller has them: at most the `settled` lines of the previous
    /// render, which only growing texts have).
    func part(_ part: JSONObject, finished: Bool, skip: Int = 0, stream: () -> TranscriptLines) -> RenderedBlock {
        func source(skip: Int) -> RenderedBlock {
            let text = part["text"]?.stringValue ?? ""
            return finished ? self.source(text, finished: true).dropping(skip) : stream().render(text, skip: skip)
        }
        switch PartKind(part) {
        case .text:
            return source(skip: skip)
        case .reasoning:
            guard options.showReasoning else { return RenderedBlock() }
            let heading = [line("> **Reasoning**"), line(">")]
            let body = source(skip: max(0, skip - heading.count))
            var result = RenderedBlock.final(Array(heading.dropFirst(skip)))
            result.append(body.prefixed(first: [Span("> ")], rest: [Span("> ")]), separator: [])
            result.settled = body.settled > 0 ? heading.count + body.settled : 0
            return result
        case .stepStart, .hiddenTool, .other:
            return RenderedBlock()
        case .tool(let name):
            return .final(tool(ToolCall(part, name: name)))
        case .sourceURL:
            let url = part["url"]?.stringValue ?? ""
            let title = part["title"]?.stringValue ?? url
            return .final([line("- Source: [" + escaped(title) + "](<" + url.withoutControlCharacters + ">)")])
        case .sourceDocument:
            let title = part["title"]?.stringValue ?? part["filename"]?.stringValue ?? "document"
            return .final([line("- Source: " + escaped(title))])
        case .file:
            let name = part["filename"]?.stringValue ?? "file"
            let type = part["mediaType"]?.stringValue.map { " (\($0))" } ?? ""
            let url = part["url"]?.stringValue ?? ""
            if url.isEmpty || url.hasPrefix("data:") { return .final([line("- File: " + escaped(name) + type)]) }
            return .final([line("- File: [" + escaped(name) + "](<" + url.withoutControlCharacters + ">)" + type)])
        case .data(let name):
            let value = part["data"] ?? .null
            if options.tools == .full { return .final([line("Data `data-" + name + "`:")] + fenced(JSONText.pretty(value), info: "json")) }
            return .final([line("- Data `data-" + name + "`: " + code(JSONText.compact(value)))])
        }
    }

    /// The text's own lines. While it grows, a line is final once its newline is in; blank lines
    /// wait until something follows them, since blank lines at the end are dropped.
    private func source(_ text: String, finished: Bool) -> RenderedBlock {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).withoutControlCharacters }
        // The headings go below the turn heading. An unfinished last line is left as it is.
        let last = finished ? [] : lines.suffix(1)
        lines = TranscriptHeadings.shift(Array(lines.dropLast(last.count)), by: Self.turnHeadingLevel) + last
        let complete = finished ? lines.count : lines.count - 1
        var stable = complete
        while stable > 0 && lines[stable - 1].allSatisfy({ $0 == " " }) { stable -= 1 }
        let leading = lines.prefix(while: { $0.allSatisfy { $0 == " " } }).count
        if finished {
            lines = Array(lines[..<stable])
        }
        let dropped = min(leading, lines.count)
        lines.removeFirst(dropped)
        let styled = lines.map { $0.isEmpty ? [] : [Span($0)] } as [StyledLine]
        return RenderedBlock(lines: styled, stable: max(0, stable - dropped), pending: !finished)
    }

    private func tool(_ call: ToolCall) -> [StyledLine] {
        var summary = "> ⚙ " + code(call.name) + " · " + call.stateLabel
        var lines: [StyledLine] = []
        if let questions = call.questions {
            // A question to the user is shown whole, whatever the tools setting.
            lines.append(line(summary))
            for question in questions {
                let (text, options) = question.lines
                lines += [line(">"), line("> **" + escaped(text) + "**")]
                lines += options.map { line("> " + escaped($0)) }
            }
            for answer in call.answers { lines += [line(">"), line("> Answer: " + escaped(answer))] }
        } else if options.tools == .compact {
            if !call.compactInput.isEmpty { summary += " · " + code(call.compactInput) }
            // A backslash keeps the error on its own line inside the same quote.
            lines.append(line(summary + (call.errorText == nil ? "" : "\\")))
        } else {
            lines.append(line(summary))
            if let input = call.input { lines += [line(""), line("Input:")] + fenced(JSONText.pretty(input), info: "json") }
            if let output = call.output {
                if let text = output.stringValue {
                    lines += [line(""), line("Output:")] + fenced(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), info: "")
                } else {
                    lines += [line(""), line("Output:")] + fenced(JSONText.pretty(output), info: "json")
                }
            }
        }
        if let error = call.errorText {
            if options.tools == .full { lines.append(line("")) }
            lines += error.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
                line(($0.offset == 0 ? "> **Error:** " : "> ") + String($0.element).withoutControlCharacters)
            }
        }
        return lines
    }

    func incompleteNotice(reason: String, detail: String?) -> [StyledLine] {
        [line("> ⚠ **Incomplete:** " + reason + (detail.map { " — " + $0 } ?? ""))]
    }

    func streamError(_ text: String) -> [StyledLine] {
        [line("> ✗ **Error:** " + text.replacingNewlines)]
    }

    private func line(_ text: String) -> StyledLine { text.isEmpty ? [] : [Span(text.withoutControlCharacters)] }

    /// Inline code that survives backticks in the text.
    private func code(_ text: String) -> String {
        let fence = String(repeating: "`", count: longestRun(of: "`", in: text) + 1)
        let pad = text.hasPrefix("`") || text.hasSuffix("`") ? " " : ""
        return fence + pad + text.replacingNewlines + pad + fence
    }

    private func fenced(_ lines: [String], info: String) -> [StyledLine] {
        let fence = String(repeating: "`", count: max(3, lines.map { longestRun(of: "`", in: $0) }.max().map { $0 + 1 } ?? 3))
        return [line(fence + info)] + lines.map(line) + [line(fence)]
    }

    private func longestRun(of character: Character, in text: String) -> Int {
        var longest = 0, current = 0
        for c in text {
            current = c == character ? current + 1 : 0
            longest = max(longest, current)
        }
        return longest
    }

    private func escaped(_ text: String) -> String {
        var out = ""
        for c in text.replacingNewlines {
            if "[]\\`*_<>".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }
}

extension String {
    fileprivate var replacingNewlines: String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " ")
    }
}
