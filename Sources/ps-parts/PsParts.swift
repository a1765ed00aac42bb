import ArgumentParser
import PSCore

@main
struct PsParts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-parts",
        abstract: "Not yet built.")

    static func main() { runAsTool() }

    func run() throws {
        throw ToolError(.failure, "not yet built")
    }
}
