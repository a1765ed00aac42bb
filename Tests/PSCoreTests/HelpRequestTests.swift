import ArgumentParser
import Testing
@testable import PSCore

/// `--help` read from the words alone (HelpRequest), and the glance made that way: the same
/// as the one made from the parser's answer.
@Suite struct HelpRequestTests {
    struct Tool: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ps-x", abstract: "Root of the tool.", version: "1.0",
            subcommands: [Go.self, Stay.self], defaultSubcommand: Stay.self)
    }

    struct Go: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Go somewhere. Far.",
            discussion: "Prose.\n\nEXAMPLES:\n  ps-x go --to home\n  ps-x go --to work --fast\n")
        @Option(help: "Where to go. Anywhere.") var to: String
        @Flag(help: "Run.") var fast = false
        @Argument(help: "Who goes along.") var company: [String] = []
    }

    struct Stay: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stay here.")
        @Option(name: .shortAndLong, help: "How long, in minutes.") var minutes = 5
    }

    struct Single: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ps-one", abstract: "One command.")
        @Argument(help: "The message.") var message: String
        @Option(help: "The model.") var model: String?
    }

    @Test func helpAfterSubcommandNamesOrHelpBeforeThemNamesTheirCommand() {
        #expect(HelpRequest.commandStack(["--help"], root: Tool.self).map(names) == ["ps-x"])
        #expect(HelpRequest.commandStack(["-h"], root: Tool.self).map(names) == ["ps-x"])
        #expect(HelpRequest.commandStack(["go", "--help"], root: Tool.self).map(names) == ["ps-x", "go"])
        #expect(HelpRequest.commandStack(["help", "stay"], root: Tool.self).map(names) == ["ps-x", "stay"])
        #expect(HelpRequest.commandStack(["help"], root: Tool.self).map(names) == ["ps-x"])
        #expect(HelpRequest.commandStack(["--help"], root: Single.self).map(names) == ["ps-one"])
    }

    @Test func anythingElseIsLeftToTheParser() {
        for words in [[], ["go"], ["go", "--to", "x", "--help"], ["--help", "go"], ["walk", "--help"], ["go", "--help-hidden"],
                      ["--version"], ["stay", "-m", "3"]] {
            #expect(HelpRequest.commandStack(words, root: Tool.self) == nil, "\(words)")
        }
        // A single command's words are its own arguments: `help` is a message, not a request.
        #expect(HelpRequest.commandStack(["help"], root: Single.self) == nil)
        #expect(HelpRequest.commandStack(["hello", "--help"], root: Single.self) == nil)
    }

    @Test(arguments: [["--help"], ["go", "--help"], ["stay", "--help"]])
    func theGlanceFromTheWordsIsTheGlanceFromTheParser(_ words: [String]) throws {
        let stack = try #require(HelpRequest.commandStack(words, root: Tool.self))
        let fromWords = try #require(Tool.glanceHelp(for: stack))
        var fromParser: String?
        do {  // --help parses as ArgumentParser's help command, which throws the help request
            var command = try Tool.parseAsRoot(words)
            try command.run()
        } catch { fromParser = Tool.glanceHelp(for: error) }
        #expect(fromWords == fromParser)
        #expect(fromWords.hasPrefix(stack.last!.configuration.abstract + "\n\nUSAGE: "))
    }

    @Test func theGlanceOfASingleCommandFromTheWordsIsTheGlanceFromTheParser() throws {
        let fromWords = try #require(Single.glanceHelp(for: [Single.self]))
        var fromParser: String?
        do {
            var command = try Single.parseAsRoot(["--help"])
            try command.run()
        } catch { fromParser = Single.glanceHelp(for: error) }
        #expect(fromWords == fromParser)
        #expect(fromWords.contains("  <message>"))
    }

    struct Unversioned: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ps-u", abstract: "No version.", subcommands: [Go.self])
    }

    struct WithOption: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ps-o", subcommands: [Go.self])
        @Flag(help: "Be loud.") var loud = false
    }

    /// A root with subcommands and no options of its own is glanced at without the dump of its
    /// whole tree; any other falls back to the dump, and both are the parser's glance.
    @Test func aRootsGlanceWithoutItsTreesDumpIsTheParsersGlance() throws {
        #expect(Tool.rootGlance() != nil)
        #expect(Unversioned.rootGlance() != nil)
        #expect(WithOption.rootGlance() == nil)
        #expect(Single.rootGlance() == nil)
        for root in [Tool.self, Unversioned.self, WithOption.self] as [ParsableCommand.Type] {
            let fromWords = try #require(root.glanceHelp(for: [root]))
            var fromParser: String?
            do {
                var command = try root.parseAsRoot(["--help"])
                try command.run()
            } catch {
                fromParser = root.glanceHelp(for: error)
            }
            #expect(fromWords == fromParser)
        }
        #expect(try #require(Unversioned.rootGlance()).contains("--version") == false)
        #expect(try #require(WithOption.glanceHelp(for: [WithOption.self])).contains("  --loud "))
    }

    func names(_ stack: [ParsableCommand.Type]) -> [String] { stack.map { $0._commandName } }
}
