import ArgumentParser

/// Options given before a subcommand (`ps-facts --profile lucid extract`): every subcommand
/// declares the options it takes (the connection options among them), so the words before the
/// subcommand's name are moved after it, where the subcommand parses them as its own.
public enum LeadingOptions {
    /// `arguments` as the parser wants them. Unchanged when they parse as given, when the
    /// command has no subcommands, or when no rearrangement parses either (the original error
    /// is then the one reported).
    public static func reordered(_ arguments: [String], for command: ParsableCommand.Type) -> [String] {
        let names = Set(command.configuration.subcommands.map { $0._commandName })
        guard !names.isEmpty, let first = arguments.first, first.hasPrefix("-"),
              !arguments.contains(where: { ["-h", "--help", "--version", "--experimental-dump-help"].contains($0) }),
              (try? command.parseAsRoot(arguments)) == nil
        else { return arguments }
        for index in candidates(arguments, names: names).reversed() {
            var moved = arguments
            let name = moved.remove(at: index)
            moved.insert(name, at: 0)
            if (try? command.parseAsRoot(moved)) != nil { return moved }
        }
        return arguments
    }

    /// Where the subcommand's name may be: a known name in the leading run of options, each
    /// word of which is an option or may be the value of the option before it.
    static func candidates(_ arguments: [String], names: Set<String>) -> [Int] {
        var found: [Int] = []
        var previousTakesValue = false
        for (index, word) in arguments.enumerated() {
            if word == "--" { break }
            if word.hasPrefix("-") {
                previousTakesValue = !word.contains("=")
                continue
            }
            if names.contains(word) { found.append(index) }
            guard previousTakesValue else { break }
            previousTakesValue = false
        }
        return found
    }
}
