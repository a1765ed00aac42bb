import ArgumentParser
import PSCore

@main
struct PsParts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-parts",
        abstract: "Rebuild assistant messages from a chat stream, as the Vercel AI SDK does.",
        discussion: """
            Reads the event records ps-sse writes (one JSON object a line) and rebuilds the assistant \
            message exactly as the AI SDK's own reducer does: text and reasoning parts, tool calls with \
            their streamed input, outputs and approvals, sources, files, data parts, steps and metadata. \
            Besides the AI SDK UI message stream it reads the simplified chunks some servers send \
            ({"type":"text"}, tool-call, tool-result, finish with usage), the AI SDK v4 data stream \
            the Gemini API's named events (token, thought, tool-call, tool-result, done), and \
            OpenAI-compatible chat.completion.chunk streams (content, reasoning_content, tool_calls \
            whose arguments come in pieces, finish_reason, usage).

            By default it writes part records as the message grows (message-start, part-start, \
            part-delta, part-update, parts-reset, metadata, stream-error, message-end), one line \
            each and at once, for a renderer to follow. With --final it writes one UIMessage line \
            per message when it ends. Both are described in ps-ndjson(5).

            Lines holding whole messages (history: UIMessages, PageSpace's stored envelope with \
            textParts/partsOrder and its tool calls and results, or plain-string content) are \
            normalised to UIMessages and written as they come, in both modes.

            A message that does not end properly keeps everything built so far and is marked \
            incomplete with the reason (no-finish, error, abort, malformed) and a detail; one line \
            on stderr says what happened and where. A malformed line (not JSON, not a record, a \
            delta for a part never started, an output for an unknown tool call) stops the input \
            there, as the AI SDK stops.

            EXAMPLES:
              ps-send "hi" | ps-sse | ps-parts | ps-render
              ps-sse < examples/tools.sse | ps-parts --final
              examples/play examples/text.sse | ps-sse | ps-parts | ps-render
              ps-history --conversation ID --all | ps-parts | ps-render

            \(ExitStatus.helpText([.success, .failure, .usage, .malformedInput, .incomplete, .brokenPipe]))
            """,
        version: ToolVersion.line)

    @Argument(help: "The event records to read (default: standard input, also '-').", completion: .file())
    var file: String?

    @Flag(name: .long, help: "Write one complete UIMessage line per message at its end instead of part records.")
    var final = false

    @OptionGroup var recordSize: RecordSizeOption

    static func main() { runAsTool() }

    func run() throws {
        recordSize.apply()
        if file == nil || file == "-" {
            try Terminal.refuseInteractiveStdin(usage: "usage: ps-sse < stream.sse | ps-parts [--final]   (see ps-parts --help)")
        }
        let lines = RecordLineReader(try ChunkReader.open(path: file))
        let writer = RecordWriter()
        let records = PartRecords(final: final)
        let name = lines.name
        var incomplete = false

        let stream = MessageStream { event in
            writer.append { records.write(event, to: &$0) }
            if case .ended(_, .incomplete(let reason, let detail, let line)) = event {
                incomplete = true
                switch reason {
                case .noFinish:
                    Diagnostics.error("\(name): line \(line): \(detail); the message is incomplete")
                case .error: Diagnostics.error("\(name): line \(line): the stream reported an error: \(detail)")
                case .abort: Diagnostics.error("\(name): line \(line): the stream was aborted: \(detail)")
                case .malformed: break  // reported with the exit status below
                }
            }
        }

        func handle(_ line: UnsafeRawBufferPointer, _ number: Int) throws {
            try stream.consumeLine(line, number: number, hint: Self.hint)
        }
        // The records of each read go out before the next read: none waits for more input.
        do {
            try lines.forEachLine(handle, afterRead: writer.flush)
            try stream.finish()
            try writer.flush()
        } catch let error as MalformedRecord {
            try writer.flush()  // everything good before the bad line
            throw ToolError(.malformedInput, "\(name): \(error)")
        } catch let error as ToolError {
            try writer.flush()
            throw error
        }
        if incomplete { throw ExitRequest(.incomplete) }
    }

    /// Raw SSE or data-stream text where records belong: say what to do.
    static func hint(_ line: UnsafeRawBufferPointer) -> String {
        let prefixes = ["data:", "event:", "id:", ":"]
        if prefixes.contains(where: { line.starts(with: $0.utf8) }) {
            return "; this looks like a raw event stream: pipe it through ps-sse first"
        }
        if line.count > 1, line[1] == UInt8(ascii: ":"), line[0] != UInt8(ascii: "{") {
            return "; this looks like an AI SDK v4 data stream: pipe it through ps-sse first"
        }
        return ""
    }
}
