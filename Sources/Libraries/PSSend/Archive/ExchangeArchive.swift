import ArgumentParser
import PSCore
import PSNet
#if canImport(Glibc)
import Glibc
#endif

/// `--archive` / `--no-archive` (ps-send, ps-batch): whether each finished exchange is kept in
/// the archive; without either, config.json says (Session.archivesByDefault), else it is not.
public struct ArchiveOption: ParsableArguments {
    @Flag(inversion: .prefixedNo, help: ArgumentHelp(
        "Keep each exchange in the archive (ps-search --archive), or not. Default: \"archive\" in config.json, else not."))
    public var archive: Bool?

    public init() {}

    public func isOn(for session: Session) -> Bool { archive ?? session.archivesByDefault }
}

/// One finished exchange as the archive keeps it: the user's message and the reply, each a
/// message record (ps-ndjson(5)) with its `conversationId`, its `createdAt` and the `origin`
/// ps-history would give it (so a later `ps-history | ps-archive` replaces, not repeats, a
/// message whose id the server keeps), the model named in the reply's `metadata.model`; a
/// reply whose stream named no id gets one.
public struct Exchange {
    public var message: JSON?
    public var reply: JSON
    public var conversationID: String?
    public var model: String?
    public var origin: String
    public var sentAt: String

    public init(message: JSON?, reply: JSON, conversationID: String?, model: String?, origin: String, sentAt: String) {
        self.message = message
        self.reply = reply
        self.conversationID = conversationID
        self.model = model
        self.origin = origin
        self.sentAt = sentAt
    }

    /// The two records (or the reply's alone when what was sent is not a message of the user's:
    /// an answer to the assistant's question). The reply takes its conversation from its own
    /// metadata when the send named none (a server that makes the conversation itself).
    public var records: [JSON] {
        let conversation = conversationID ?? reply["metadata"]?["conversationId"]?.stringValue
        func stamped(_ record: JSON, at time: String) -> JSON {
            guard case .object(var object) = record else { return record }
            if object["createdAt"] == nil { object["createdAt"] = .string(time) }
            if object["conversationId"] == nil { object["conversationId"] = conversation.map(JSON.string) }
            object["origin"] = .string(origin)
            return .object(object)
        }
        var reply = stamped(self.reply, at: Self.now())
        if case .object(var object) = reply {
            // A stream that names no id for its reply (the Gemini API's) leaves the archive no
            // key for it: it gets one here.
            if object["id"]?.stringValue?.isEmpty != false { object["id"] = .string(RandomID.messageID()) }
            if let model {
                var metadata = object["metadata"]?.objectValue ?? JSONObject()
                if metadata["model"] == nil { metadata["model"] = .string(model) }
                object["metadata"] = .object(metadata)
            }
            reply = .object(object)
        }
        guard let message, message["role"]?.stringValue == "user" else { return [reply] }
        return [stamped(message, at: sentAt), reply]
    }

    /// Now, as a record's `createdAt`.
    public static func now() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return LocalConversations.iso8601(milliseconds: Int(time.tv_sec) * 1000 + Int(time.tv_nsec) / 1_000_000)
    }
}

/// Keeps exchanges in the archive by handing their records to `ps-archive` (beside this
/// executable), exactly as `... | ps-archive` would: the same ingest, the same file
/// ($XDG_DATA_HOME/ps-tools/archive.sqlite), found by ps-search the same way. A child process,
/// so that a command that archives nothing never links or loads SQLite. What ps-archive says
/// of a failure (a file it cannot write, a database locked past its busy timeout, a file that
/// is not an archive) becomes one line of this command's, exit 12 (`notArchived`): the answer
/// is written by then.
public enum ExchangeArchive {
    public static let command = "ps-archive"
    /// How each of its errors begins.
    public static let failure = "the exchange was not archived: "

    public static func store(_ exchange: Exchange) throws {
        guard let executable = InternalHelper.path(command) else {
            let places = InternalHelper.folders()
            throw ToolError(.notArchived, failure + "\(command) is not installed ("
                + (places.isEmpty ? "the folder of \(Diagnostics.programName) is unknown" : "neither in " + places.joined(separator: " nor in "))
                + ")")
        }
        var input: [UInt8] = []
        for record in exchange.records {
            record.write(to: &input)
            input.append(0x0A)
        }
        let mebibytes = max(1, (InputLimits.current.maxRecordBytes + (1 << 20) - 1) >> 20)
        let child: ChildPipes
        do {
            child = try ChildPipes(executable: executable, arguments: [command, InputLimits.flag, String(mebibytes)],
                                   errorsToOutput: true)
        } catch let error as ToolError {
            throw ToolError(.notArchived, failure + error.message)
        }
        defer { child.finish() }
        child.send(input)
        // It says nothing when all is stored; of a failure, its first line is enough.
        var said: [UInt8] = []
        try child.output.forEachChunk { chunk in
            if said.count < 4096 { said.append(contentsOf: chunk.prefix(4096 - said.count)) }
        }
        let status = child.wait()
        let signal = status & 0x7F
        if signal == SIGINT || signal == SIGTERM { throw ExitRequest(.interrupted) }  // Ctrl-C reached it too
        guard status != 0 else { return }
        var line = String(decoding: said.prefix { $0 != 0x0A }, as: UTF8.self)
        if line.hasPrefix(command + ": ") { line.removeFirst(command.count + 2) }
        if line.isEmpty { line = "\(command) failed (\(ChildPipes.describe(status)))" }
        throw ToolError(.notArchived, failure + TerminalSafeText.sanitize(line))
    }
}
