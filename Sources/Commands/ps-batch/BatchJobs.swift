import PSCore
import PSSend
import PSPrompt

/// One job of the input: `{"id":"j1","message":"…"}` (with --template `{"id":"j1","vars":{…}}`,
/// the template filled from them), optionally with the `conversation` to continue and the
/// `model` to use.
struct BatchJob: Sendable {
    let id: String
    /// Where it was read (the input's name and line), for messages.
    let place: String
    let text: String
    let conversation: String?
    let model: String?
}

/// Reads every job before anything is sent: a line that is not a JSON object, a job without an
/// `id` or a `message`, a field of the wrong type or an `id` given twice is exit 3 naming the
/// line; a message holding a secret is refused (exit 2) as ps-send refuses it. With a template,
/// each job's `vars` fill it (a placeholder without a value, or a value without a placeholder,
/// is exit 2 naming the job). The jobs checked are kept on disk (a RecordSpool), so that memory
/// holds their ids and lanes, not their messages.
enum BatchInput {
    static func read(_ path: String?, secrets: SecretCheck, template: PromptTemplate? = nil) throws -> BatchJobs {
        let lines = RecordLineReader(try ChunkReader.open(path: path))
        let jobs = BatchJobs(spool: try RecordSpool(name: "ps-batch"))
        var firstLine: [String: Int] = [:]
        try lines.forEachLine { bytes, number in
            let place = "\(TerminalSafeText.sanitize(lines.name)) line \(number)"
            guard let record = try? JSON.parse(bytes), record.objectValue != nil else {
                throw ToolError(.malformedInput, "\(place) is not a JSON object")
            }
            guard let id = record["id"]?.stringValue, !id.isEmpty else {
                throw ToolError(.malformedInput, "\(place) has no id (a non-empty string): every job needs one")
            }
            if let first = firstLine[id] {
                throw ToolError(.malformedInput, "\(place): the id \(JSON.string(id).serialized()) is taken by line \(first); "
                    + "ids must be unique (nothing was sent)")
            }
            firstLine[id] = number
            let job = "\(place) (job \(JSON.string(id).serialized()))"
            let message: String
            if let template {
                guard record["message"] == nil else {
                    throw ToolError(.malformedInput, "\(job): with --template a job gives vars, not a message")
                }
                var values: [String: String] = [:]
                for (name, value) in record["vars"]?.objectValue ?? JSONObject() {
                    guard let text = value.stringValue else { throw ToolError(.malformedInput, "\(job): vars.\(name) is not a string") }
                    values[name] = text
                }
                if let vars = record["vars"], vars.objectValue == nil {
                    throw ToolError(.malformedInput, "\(job): vars must be an object of strings")
                }
                do {
                    message = try template.fill(values, stdin: nil, varsName: "vars")
                } catch let error as ToolError {
                    throw ToolError(error.status, "\(job): \(error.message)")
                }
            } else {
                guard record["vars"] == nil else {
                    throw ToolError(.malformedInput, "\(job) has vars but there is no --template to fill")
                }
                guard let text = record["message"]?.stringValue, !text.allSatisfy(\.isWhitespace) else {
                    throw ToolError(.malformedInput, "\(job) has no message (a non-empty string)")
                }
                message = text
            }
            for field in ["conversation", "model"] {
                if let value = record[field], value.stringValue?.isEmpty != false {
                    throw ToolError(.malformedInput, "\(place): \(field) must be a non-empty string")
                }
            }
            let text = try secrets.pass(message, from: "\(job), its message")
            try jobs.append(BatchJob(id: id, place: place, text: text, conversation: record["conversation"]?.stringValue,
                                     model: record["model"]?.stringValue))
        }
        return jobs
    }
}

/// The jobs of a batch, on disk in input order, and the conversations they name. Appended to
/// by the reading thread alone, before the workers start; they only read it.
final class BatchJobs: @unchecked Sendable {
    private let spool: RecordSpool
    /// Each job's `conversation`, nil for a new one (only until the lanes are made).
    private var conversations: [String?] = []

    init(spool: RecordSpool) { self.spool = spool }

    var count: Int { spool.count }

    func append(_ job: BatchJob) throws {
        var record = JSONObject()
        record["id"] = .string(job.id)
        record["place"] = .string(job.place)
        record["text"] = .string(job.text)
        record["conversation"] = job.conversation.map(JSON.string)
        record["model"] = job.model.map(JSON.string)
        try spool.append([.object(record)])
        conversations.append(job.conversation)
    }

    /// The `index`-th job, read back from the disk.
    func job(_ index: Int) throws -> BatchJob {
        let record = try JSON.parse(bytes: Array(try spool.group(index).dropLast()))
        return BatchJob(
            id: record["id"]?.stringValue ?? "", place: record["place"]?.stringValue ?? "",
            text: record["text"]?.stringValue ?? "", conversation: record["conversation"]?.stringValue,
            model: record["model"]?.stringValue)
    }

    /// The jobs in lanes that may run side by side: each job alone, except those that go to one
    /// conversation (the job's `conversation`, or all with --conversation), which form one lane
    /// run in input order, one at a time (a second send to a PageSpace conversation would take
    /// over the reply of the first). Each job is named by its number.
    func lanes(sharedConversation: String?) -> [[Int]] {
        defer { conversations = [] }
        if sharedConversation != nil { return count == 0 ? [] : [Array(0..<count)] }
        var lanes: [[Int]] = []
        var laneOf: [String: Int] = [:]
        for (job, conversation) in conversations.enumerated() {
            if let conversation {
                if let index = laneOf[conversation] {
                    lanes[index].append(job)
                    continue
                }
                laneOf[conversation] = lanes.count
            }
            lanes.append([job])
        }
        return lanes
    }
}
