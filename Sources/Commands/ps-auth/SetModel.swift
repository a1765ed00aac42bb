import ArgumentParser
import PSCore
import PSNet

struct SetModel: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-model",
        abstract: "Store the model ps-send uses when it is given no --model, or remove it.",
        usage: "ps-auth set-model <name> [<options>]\n       ps-auth set-model --unset [<options>]",
        discussion: """
            The model is kept in the profile (config.json), beside its server and API, and used \
            by ps-send for every API kind when --model is absent, so that one script runs \
            against every backend with only --profile changed. Nothing is asked of the server: \
            ps-models lists what an OpenAI-compatible server offers. The profile must exist \
            (ps-auth login first, which takes --model too).

            EXAMPLES:
              ps-auth set-model llama3.2 --profile ollama
              ps-auth set-model ps-agent://page_123 --profile pagespace-v1
              ps-auth set-model --unset

            \(ExitStatus.helpText([.success, .failure, .usage]))
            """)

    @OptionGroup var connection: ConnectionOptions

    @Flag(name: .long, help: "Remove the profile's model.")
    var unset = false

    @Argument(help: ArgumentHelp("The model's name, as the server knows it.", valueName: "name"))
    var name: String?

    func validate() throws {
        if unset && name != nil { throw ValidationError("give a model name or --unset, not both") }
        if !unset && name == nil { throw ValidationError("give a model name (or --unset)") }
        if let name, name.allSatisfy(\.isWhitespace) { throw ValidationError("the model name must not be blank") }
    }

    func run() throws {
        var environment = Environment.current
        environment["PAGESPACE_API_URL"] = nil  // the profile's own server, not the environment's
        let session = try connection.resolveSession(environment: environment)
        try session.storeModel(name)
        if let name {
            Diagnostics.writeLine("Profile \(session.profileName) now uses the model \(TerminalSafeText.sanitize(name)).")
        } else {
            Diagnostics.writeLine("Profile \(session.profileName) has no model now.")
        }
    }
}
