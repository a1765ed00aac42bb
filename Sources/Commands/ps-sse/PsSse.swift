import ArgumentParser
import PSCore

@main
struct PsSse: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-sse",
        abstract: "Turn a Server-Sent Events stream into NDJSON event records, one per event.",
        discussion: """
            ps-sse reads a text/event-stream body (what an AI chat endpoint sends) from a file or \
            standard input and writes one event record per event, as ps-ndjson(5) defines them:

              {"event":"message","id":"","data":{"type":"text-delta","delta":"Hi"}}

            The stream is read exactly as the HTML standard says: a leading byte order mark is \
            dropped; lines end with CR, LF or CRLF; lines starting with ":" are comments; the \
            fields are event, data, id and retry (one space after the colon is removed, others \
            are ignored); data lines are joined with newlines; an event is dispatched at a blank \
            line, and only when it has data. "id" is the last event ID seen so far; "retry" is \
            present only on the event whose block set it. Invalid UTF-8 becomes U+FFFD, and ps-sse says so \
            once on stderr.

            "data" holds the decoded JSON value when the event's data is one JSON text, so the \
            next command need not parse it twice, and the string otherwise. With --raw it is \
            always the exact string. The AI SDK's end marker "[DONE]" gives "data":"[DONE]" and \
            "done":true.

            The AI SDK v4 data stream (lines like 0:"Hi" or d:{"finishReason":"stop"}) is \
            recognised by its first line, or chosen with --format data-stream. Each line becomes \
            {"event":"data-stream","id":"","data":{"code":"0","value":"Hi"}}; with --raw, "data" \
            is the line as it was.

            Each record is written the moment its event is complete, and memory stays the same \
            however long the stream is: a line or event longer than --max-record-size (64 MiB) \
            ends the reading with exit 3, after the records before it. A stream that ends inside an event (no blank line after \
            it) is incomplete: that event is dropped, as the standard says, and ps-sse exits \
            with status 10. A malformed data-stream line is reported with its line number and \
            skipped; the rest is still written and ps-sse exits with status 3.

            EXAMPLES:
              curl -sN URL | ps-sse | ps-parts | ps-render
              ps-sse recorded.sse | jq -j '.data.delta // empty'
              ps-sse --raw stream.txt
              ps-sse --format data-stream old-stream.txt | ps-parts --final

            \(ExitStatus.helpText([.success, .failure, .usage, .malformedInput, .incomplete, .brokenPipe]))
            """,
        version: ToolVersion.line)

    @Argument(help: ArgumentHelp("The stream to read. Standard input when absent or \"-\".", valueName: "file"))
    var file: String?

    @Flag(help: "Write each event's data as the exact string, never decoded as JSON.")
    var raw = false

    @Option(
        help: ArgumentHelp(
            "The input's format: sse, data-stream or auto. A data stream is AI SDK v4 CODE:JSON lines; auto tells them apart by the first line.",
            valueName: "format"))
    var format: StreamTranslator.Format = .auto

    @OptionGroup var recordSize: RecordSizeOption

    static func main() { runAsTool() }

    func run() throws {
        recordSize.apply()
        if file == nil || file == "-" {
            try Terminal.refuseInteractiveStdin(
                usage: "Pipe a stream into it (curl -sN URL | ps-sse) or name a file (ps-sse stream.sse); see ps-sse --help.")
        }
        let reader = try ChunkReader.open(path: file)
        let output = EventRecordOutput(raw: raw)
        var translator = StreamTranslator(format: format, output: output, inputName: reader.name)
        // The records of each read go out before the next read: none waits for more input.
        do {
            try reader.forEachChunk {
                try translator.feed($0)
                try output.flush()
            }
            try translator.finish()
        } catch {
            try output.flush()
            throw error
        }
        try output.flush()
    }
}

extension StreamTranslator.Format: ExpressibleByArgument {}
