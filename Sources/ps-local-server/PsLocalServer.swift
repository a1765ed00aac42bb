import ArgumentParser
import PSCore

@main
struct PsLocalServer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-local-server",
        abstract: "Not yet built.")

    static func main() { runAsTool() }

    func run() throws {
        throw ToolError(.failure, "not yet built")
    }
}
