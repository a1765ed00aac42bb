import ArgumentParser
import PSCore

@main
struct PsRender: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-render",
        abstract: "Not yet built.")

    static func main() { runAsTool() }

    func run() throws {
        throw ToolError(.failure, "not yet built")
    }
}
