import ArgumentParser
import PSCore

@main
struct PsAuth: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-auth",
        abstract: "Not yet built.")

    static func main() { runAsTool() }

    func run() throws {
        throw ToolError(.failure, "not yet built")
    }
}
