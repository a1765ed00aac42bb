import ArgumentParser
import PSCore

@main
struct PsSend: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ps-send",
        abstract: "Not yet built.")

    static func main() { runAsTool() }

    func run() throws {
        throw ToolError(.failure, "not yet built")
    }
}
