import ArgumentParser

/// A plain request for the glance: `CMD [SUB ...] --help` (or `-h`), or `CMD help [SUB ...]`
/// when CMD has subcommands, every other word naming a subcommand. Read from the words alone,
/// so the glance is made without ArgumentParser's parse and the whole help screen it renders,
/// which the glance only needs the USAGE line of (a third of --help's start-up). Any other
/// words (an option beside --help, a word that names no subcommand) are left to the parser.
enum HelpRequest {
    /// The commands the words name, the root first; nil when they are not such a request.
    static func commandStack(_ arguments: [String], root: ParsableCommand.Type) -> [ParsableCommand.Type]? {
        var words = arguments[...]
        if let last = words.last, last == "--help" || last == "-h" {
            words = words.dropLast()
        } else if words.first == "help", !root.configuration.subcommands.isEmpty {
            words = words.dropFirst()
        } else {
            return nil
        }
        var stack = [root]
        for word in words {
            guard let command = stack.last?.configuration.subcommands.first(where: { $0._commandName == word })
            else { return nil }
            stack.append(command)
        }
        return stack
    }
}
