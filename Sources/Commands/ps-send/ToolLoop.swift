import PSCore
import PSSend
import PSNet
import PSRender
#if canImport(Glibc)
import Glibc
#endif

/// A call the model asks for and no one has answered yet.
extension ToolProcessResult.End {
    /// Past the time or output limit, or never started: said on stderr too.
    var isLimit: Bool {
        switch self {
        case .timedOut, .outputTooLong, .couldNotStart: return true
        case .exited, .signaled: return false
        }
    }
}

struct ToolCall {
    let id: String
    let name: String
    let input: JSON

    /// The calls of `reply` (a UIMessage) that have no output, error or denial, in order.
    static func pending(in reply: JSON?) -> [ToolCall] {
        (reply?["parts"]?.arrayValue ?? []).compactMap { part in
            guard let type = part["type"]?.stringValue, type.hasPrefix("tool-") || type == "dynamic-tool",
                  let id = part["toolCallId"]?.stringValue,
                  part["output"] == nil, part["errorText"] == nil,
                  !["output-available", "output-error", "output-denied"].contains(part["state"]?.stringValue ?? "")
            else { return nil }
            let name = type == "dynamic-tool" ? part["toolName"]?.stringValue ?? "" : String(type.dropFirst("tool-".count))
            return ToolCall(id: id, name: name, input: part["input"] ?? .object(JSONObject()))
        }
    }

    static func trimmed(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// Why a run is not a result: "exited with status 3: …", "took longer than 60 s", ….
    static func failure(_ result: ToolProcessResult, timeout: Int) -> String {
        let errors = trimmed(String(decoding: result.errors, as: UTF8.self))
        let said = errors.isEmpty ? "" : ": " + errors
        switch result.end {
        case .exited(let status): return "exited with status \(status)" + said
        case .signaled(let signal): return "was stopped by signal \(signal)" + said
        case .timedOut: return "took longer than \(timeout) s (--tool-timeout) and was stopped"
        case .outputTooLong: return "printed more than \(ToolOptions.maxToolOutput) bytes and was stopped"
        case .couldNotStart(let why): return "could not be started: " + why
        }
    }
}

/// `ps-send --tool`: the send, then the calls the model asks for run here (side by side when it
/// asks for several in one step), their results sent back, and again, until the model answers
/// without a call; at most --max-tool-steps steps of calls (then exit 10).
///
/// The whole exchange is one stream on stdout, one message for ps-parts: each step's response
/// as the server sent it, but for the `[DONE]` that would end the message between steps; after
/// a step, each result as a UI stream chunk (`tool-output-available`, or `tool-output-error`
/// for a call that failed, timed out or printed too much), and a `start-step` before the next
/// response; `[DONE]` once at the end. Where the client keeps the conversation, that message
/// is kept, calls and results in it.
struct ToolLoop {
    let adapter: ClientToolCalling
    let toolbox: Toolbox
    let options: ToolOptions
    let secrets: SecretCheck
    let printIDs: Bool

    /// The loop for `options`' tools, on an API that takes the client's tools.
    static func make(_ options: ToolOptions, adapter: APIAdapter, secrets: SecretCheck, printIDs: Bool) throws -> ToolLoop {
        guard let calling = adapter as? ClientToolCalling else {
            throw ToolError(.usage, "the \(adapter.kind.rawValue) API runs its own tools and takes none of the client's: "
                + "--tool and --mcp work with OpenAI-compatible servers and PageSpace's /api/v1")
        }
        return ToolLoop(adapter: calling, toolbox: try Toolbox(options), options: options, secrets: secrets, printIDs: printIDs)
    }

    func run(_ target: SendTarget, message: JSON, sendOptions: SendOptions, output: ReplyOutput) throws {
        defer { toolbox.stop() }
        let exchange = ExchangeOutput(output)
        var offer = ToolOffer(definitions: toolbox.definitions)
        var stepsRun = 0
        do {
            while true {
                let reply = try step(target, message: message, sendOptions: sendOptions, offer: offer, exchange: exchange, first: stepsRun == 0)
                let calls = ToolCall.pending(in: reply)
                if calls.isEmpty { break }
                if let unknown = calls.first(where: { toolbox.tool(named: $0.name) == nil }) {
                    try exchange.end()
                    let offered = toolbox.tools.isEmpty ? "none" : toolbox.tools.map(\.name).joined(separator: ", ")
                    throw ToolError(.incomplete, "the reply asks for the tool \(TerminalSafeText.sanitize(unknown.name)), "
                        + "which was not offered (offered: \(offered)); the run stops there")
                }
                guard stepsRun < options.maxToolSteps else {
                    try exchange.end()
                    throw ToolError(.incomplete, "the model still asks for tools after \(stepsRun) step\(stepsRun == 1 ? "" : "s") "
                        + "of calls (--max-tool-steps \(options.maxToolSteps)): the run stops there, the last calls not run")
                }
                try runCalls(calls, exchange: exchange)
                try exchange.writeChunk(["type": "start-step"])
                offer.reply = exchange.collector.messageSoFar
                stepsRun += 1
            }
            try exchange.end()
            try adapter.keepTurn(target, message: message, reply: exchange.collector.reply)
        } catch {
            // What arrived is kept, as for a send without tools.
            exchange.collector.finish(cutShort: "the run with tools stopped before the reply's end")
            try? adapter.keepTurn(target, message: message, reply: exchange.collector.reply)
            if error is ReaderGone { throw ExitRequest(.brokenPipe) }
            throw error
        }
    }

    /// One request and its response, written as it arrives; the step's reply.
    private func step(_ target: SendTarget, message: JSON, sendOptions: SendOptions, offer: ToolOffer,
                      exchange: ExchangeOutput, first: Bool) throws -> JSON? {
        var request = try adapter.toolSendRequest(target, message: message, options: sendOptions, tools: offer)
        let collector = ReplyCollector()
        let stream = ResponseStream(output: exchange, printIDs: printIDs && first, knowsConversation: target.conversationID != nil,
                                    collector: collector, resumable: true)
        stream.runsTools = true
        do {
            try stream.run(&request, client: adapter.client)
        } catch let failure as TransferFailure {
            throw stream.toolError(failure, request: request)
        }
        return collector.reply
    }

    /// Runs the calls (asking first with --confirm), each result checked for secrets, and
    /// writes the results.
    private func runCalls(_ calls: [ToolCall], exchange: ExchangeOutput) throws {
        exchange.output.tick()  // the calls on screen before they run
        var approved: [ToolCall] = []
        for call in calls {
            if options.confirm, !confirm(call, exchange: exchange) {
                try exchange.writeChunk(["type": "tool-output-error", "toolCallId": .string(call.id),
                                         "errorText": "the user declined to run this call"])
                continue
            }
            approved.append(call)
        }
        // The MCP servers' calls first (their bridges run them meanwhile), then the executables.
        let started = MonotonicClock.now
        let calls = approved.map { ($0, toolbox.tool(named: $0.name)!) }
        for (call, tool) in calls {
            if case .mcp(let server) = tool.source { server.start(call, name: tool.name, timeout: options.toolTimeout) }
        }
        let runs: [(ToolCall, ToolProcess)] = calls.compactMap { call, tool in
            guard case .executable(let path) = tool.source else { return nil }
            return (call, ToolProcess(executable: path, arguments: [], input: Array(call.input.serialized().utf8)))
        }
        let results = try ToolProcesses.run(
            runs.map(\.1), timeout: Double(options.toolTimeout), maxOutput: ToolOptions.maxToolOutput,
            environment: ToolProcesses.plainEnvironment(), whileWaiting: { exchange.output.tick() })
        var outcomes: [String: Outcome] = [:]
        for ((call, _), result) in zip(runs, results) {
            outcomes[call.id] = result.succeeded
                ? .output(String(decoding: result.output, as: UTF8.self))
                : .failure(ToolCall.failure(result, timeout: options.toolTimeout), warn: result.end.isLimit)
        }
        for (call, tool) in calls {
            guard case .mcp(let server) = tool.source else { continue }
            switch server.result(for: call.id, deadline: started + Double(options.toolTimeout) + 5) {
            case .success(let text): outcomes[call.id] = .output(text)
            case .failure(.timedOut): outcomes[call.id] = .failure("took longer than \(options.toolTimeout) s (--tool-timeout)", warn: true)
            case .failure(.failed(let why, let limit)): outcomes[call.id] = .failure(why, warn: limit)
            }
        }
        if Interrupt.isRequested { throw ToolError(.interrupted, "interrupted while the tools ran; they were stopped") }
        for (call, _) in calls {
            switch outcomes[call.id]! {
            case .output(let text):
                let checked = try secrets.pass(text, from: "the output of tool \(call.name)")
                try exchange.writeChunk(["type": "tool-output-available", "toolCallId": .string(call.id), "output": .string(checked)])
            case .failure(let why, let warn):
                if warn {
                    exchange.output.makeRoomForLine()
                    Diagnostics.warning("tool \(call.name) (\(call.id)) \(TerminalSafeText.sanitize(why)); the model is told so")
                }
                let checked = try secrets.pass(why, from: "the error output of tool \(call.name)")
                try exchange.writeChunk(["type": "tool-output-error", "toolCallId": .string(call.id), "errorText": .string(checked)])
            }
        }
    }

    /// What came of a call: its output, or why there is none (`warn`: past a limit, or its
    /// server died, which stderr says too).
    private enum Outcome {
        case output(String)
        case failure(String, warn: Bool)
    }

    /// "run clock {"zone":"UTC"}? [y/N]" on stderr, the answer from stdin (a terminal).
    private func confirm(_ call: ToolCall, exchange: ExchangeOutput) -> Bool {
        exchange.output.makeRoomForLine()
        let input = call.input.serialized()
        let shown = TerminalSafeText.sanitize(input.count > 400 ? String(input.prefix(400)) + "…" : input)
        FileDescriptorOutput.writeAll(fd: 2, Array(TerminalSafeText.sanitize("ps-send: run tool \(call.name) with \(shown)? [y/N] ").utf8))
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(0, &byte, 1) == 1 && byte != 0x0A { line.append(byte) }
        let answer = ToolCall.trimmed(String(decoding: line, as: UTF8.self)).lowercased()
        return answer == "y" || answer == "yes"
    }
}

/// The output of a run with tools: each step's bytes go on to the reply's output as they come,
/// but for a `[DONE]` event (the message goes on after it), and into one collector that
/// rebuilds the whole exchange as one message. Its input is whole events (ResponseStream
/// writes only those when it is `resumable`).
final class ExchangeOutput: ReplyOutput {
    let output: ReplyOutput
    let collector = ReplyCollector()
    private var ended = false

    init(_ output: ReplyOutput) { self.output = output }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        let kept = Self.withoutDone(Array(bytes))
        try kept.withUnsafeBytes { kept in
            try output.write(kept)
            try collector.feed(kept)
        }
    }

    func tick() { output.tick() }
    func finish() throws { try output.finish() }

    /// A chunk of ps-send's own (a tool's result, a step's start) as an event.
    func writeChunk(_ chunk: JSON) throws {
        try writeEvent("data: " + chunk.serialized() + "\n\n")
    }

    /// The `[DONE]` that ends the message, once.
    func end() throws {
        guard !ended else { return }
        ended = true
        try writeEvent("data: [DONE]\n\n")
        collector.finish()
    }

    private func writeEvent(_ text: String) throws {
        do {
            try Array(text.utf8).withUnsafeBytes { bytes in
                try output.write(bytes)
                try collector.feed(bytes)
            }
        } catch is ReplyOutputClosed {
            throw ReaderGone()
        }
    }

    /// `bytes` (whole events) less any event that is only `data: [DONE]`.
    static func withoutDone(_ bytes: [UInt8]) -> [UInt8] {
        let done = Array("[DONE]".utf8)
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var start = 0
        while start < bytes.count {
            var end = start
            // An event ends after a blank line: \n\n, or \r\n\r\n.
            while end < bytes.count {
                if bytes[end] == 0x0A, end + 1 < bytes.count, bytes[end + 1] == 0x0A { end += 2; break }
                if bytes[end] == 0x0A, end + 2 < bytes.count, bytes[end + 1] == 0x0D, bytes[end + 2] == 0x0A { end += 3; break }
                end += 1
            }
            let event = bytes[start..<min(end, bytes.count)]
            let lines = event.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D })
            let isDone = lines.count == 1 && lines[0].starts(with: Array("data:".utf8))
                && Array(lines[0].dropFirst(5).drop { $0 == 0x20 }) == done
            if !isDone { kept += event }
            start = end
        }
        return kept
    }
}
