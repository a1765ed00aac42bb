import ArgumentParser
import PSCore

@main
struct PsHistory: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-history",
        abstract: "Not yet built.")

    static func main() { runAsTool() }

    func run() throws {
        throw ToolError(.failure, "not yet built")
    }
}
