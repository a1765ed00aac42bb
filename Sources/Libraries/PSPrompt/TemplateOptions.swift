import ArgumentParser
import PSCore

/// `--template`, `--schema` and `--repair`, as ps-send and ps-batch take them: the message made
/// from a template, the answer checked against a JSON Schema. How a template is filled and
/// where a checked answer goes is each command's own (its description says).
public struct TemplateOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Make the message from a template, its {{name}} placeholders filled. FILE, or NAME for $XDG_CONFIG_HOME/ps-tools/templates/NAME.md.",
        valueName: "file|name"))
    public var template: String?

    @Option(name: .long, help: ArgumentHelp(
        "Check the answer against a JSON Schema. FILE or inline JSON; the valid value is kept as JSON, one still invalid exits 3.",
        valueName: "file|json"))
    public var schema: String?

    @Option(name: .long, help: ArgumentHelp("With --schema: send an invalid answer back n times (default 1). Each time with what is wrong.", valueName: "n"))
    public var repair: Int?

    public init() {}

    public func validate() throws {
        if let repair, repair < 0 { throw ValidationError("--repair must be 0 or more") }
        if repair != nil && schema == nil && template == nil { throw ValidationError("--repair goes with --schema") }
    }

    /// The template and the schema (--schema's, else the template's), read and checked before
    /// anything is sent, and how many repairs.
    public func load() throws -> (template: PromptTemplate?, schema: JSONSchema?, repairs: Int) {
        let template = try self.template.map { try PromptTemplate.load($0, environment: Environment.current) }
        let schema: JSONSchema?
        if let argument = self.schema {
            schema = try JSONSchema.load(argument)
        } else if let fromTemplate = template?.schema {
            schema = try JSONSchema.load(fromTemplate, option: "\(template!.source)'s schema")
        } else {
            schema = nil
        }
        if repair != nil && schema == nil { throw ToolError(.usage, "--repair goes with --schema (the template sets none)") }
        return (template, schema, repair ?? 1)
    }
}
