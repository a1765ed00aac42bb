import ArgumentParser
import PSCore
import PSSend
import PSPrompt
#if canImport(Glibc)
import Glibc
#endif

/// `--template`, `--schema`, `--repair` (TemplateOptions, as ps-batch takes them), `--var` and
/// `--print`: the message made from a template (PSPrompt), and the answer checked against a
/// JSON Schema (SchemaTurns).
struct PromptOptions: ParsableArguments {
    @OptionGroup var files: TemplateOptions

    @Option(name: .customLong("var"), help: ArgumentHelp("A template value (repeatable). Each {{name}} needs one, and each one its {{name}}; piped text fills {{stdin}}.", valueName: "name=value"))
    var vars: [String] = []

    @Flag(name: .customLong("print"), help: "Print the message instead of sending it. A dry run: filled in and checked for secrets, as it would be sent.")
    var printOnly = false

    /// What a send needs to check against ps-send's other options.
    func validate(words: [String], sendsNewMessage: Bool, stdinIsHistory: Bool) throws {
        let (template, schema) = (files.template, files.schema)
        if !vars.isEmpty && template == nil { throw ValidationError("--var goes with --template") }
        if template != nil && !(words.isEmpty || words == ["-"]) {
            throw ValidationError("--template makes the message: give no message arguments (piped text fills {{stdin}})")
        }
        if (template != nil || schema != nil || printOnly) && !sendsNewMessage {
            throw ValidationError("--template, --schema and --print go with a new message, not with --resume, --list-streams, --regenerate or --answer")
        }
        if template != nil && stdinIsHistory { throw ValidationError("--template reads piped text for {{stdin}}: give --history a file, not -") }
    }

    /// The template and the schema, read and checked before anything is sent.
    func plan() throws -> PromptPlan {
        let (template, schema, repairs) = try files.load()
        return PromptPlan(template: template, schema: schema, repairs: repairs, vars: vars)
    }
}

/// The prompt options, read.
struct PromptPlan {
    let template: PromptTemplate?
    let schema: JSONSchema?
    let repairs: Int
    let vars: [String]

    /// The template filled from --var and the piped text (nothing piped: a terminal, or
    /// empty input), then checked for secrets as a whole.
    func filledText(maxStdinBytes: Int, secrets: SecretCheck) throws -> String? {
        guard let template else { return nil }
        var values: [String: String] = [:]
        for argument in vars {
            let (name, value) = try PromptTemplate.variable(argument)
            guard values[name] == nil else { throw ToolError(.usage, "--var \(TerminalSafeText.sanitize(name)) is given twice") }
            values[name] = value
        }
        var stdin: String?
        if !Terminal.isTerminal(0) {
            let piped = try StandardInputText.readPiped(
                limit: maxStdinBytes, tooLong: "the piped input is over \(maxStdinBytes) bytes; send less, or raise --max-stdin-bytes")
            stdin = piped.isEmpty ? nil : piped
        }
        return try secrets.pass(try template.fill(values, stdin: stdin), from: "the filled template")
    }

    /// `--print`: the message on stdout, nothing sent.
    static func print(_ text: String) throws {
        let shown = Terminal.isTerminal(1) ? TerminalSafeText.sanitize(text) : text
        let error = FileDescriptorOutput.writeAll(fd: 1, Array((shown + "\n").utf8))
        if error == EPIPE { throw ExitRequest(.brokenPipe) }
        if error != 0 { throw ToolError(.failure, "cannot write output: \(String(cString: strerror(error)))") }
    }
}
