import ArgumentParser
import PSCore

@main
struct PsSse: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-sse",
        abstract: "Not yet built.")

    static func main() { runAsTool() }

    func run() throws {
        throw ToolError(.failure, "not yet built")
    }
}
