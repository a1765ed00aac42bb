import ArgumentParser

/// The glance of a plain `--help` (see HelpRequest), made from the fewest of ArgumentParser's
/// answers: the same text `glanceHelp(for: error)` makes from the parser's answer.
extension ParsableCommand {
    /// The glance of the last command of `stack`: from that command's dump and its usage line.
    static func glanceHelp(for stack: [ParsableCommand.Type]) -> String? {
        guard let command = stack.last else { return nil }
        if stack.count == 1, let glance = rootGlance() { return glance }
        let words = stack.dropFirst().map { $0._commandName }
        // The root's dump is the one `--experimental-dump-help` prints, without the parse.
        var dump = words.isEmpty ? _dumpHelp() : ""
        if !words.isEmpty {
            do { _ = try parseAsRoot(words + ["--experimental-dump-help"]) } catch { dump = fullMessage(for: error) }
        }
        return GlanceHelp(dump: dump, name: ([_commandName] + words).joined(separator: " "), usage: usageBlock(for: command))?
            .rendered()
    }

    /// The glance of a root that has subcommands and no options of its own (`ps-auth --help`).
    /// Its dump would be the whole tree, every option of every subcommand, and cost more than
    /// the rest of the start-up; the glance shows only the root's built-in flags (the dump of a
    /// command that has nothing else) and each subcommand's name and summary. Nil for another root.
    static func rootGlance() -> String? {
        let subcommands = configuration.subcommands
        guard !subcommands.isEmpty, Mirror(reflecting: Self()).children.isEmpty else { return nil }
        let builtIns = configuration.version.isEmpty ? BuiltInFlags._dumpHelp() : VersionedBuiltInFlags._dumpHelp()
        guard let flags = try? JSON.parse(builtIns), let arguments = flags["command"]?["arguments"] else { return nil }
        let node: JSON = [
            "abstract": .string(configuration.abstract),
            "discussion": .string(configuration.discussion),
            "arguments": arguments,
            "subcommands": .array(subcommands.map {
                ["commandName": .string($0._commandName), "abstract": .string($0.configuration.abstract)]
            }),
        ]
        return GlanceHelp(command: node, name: _commandName, usage: usageBlock(for: self)).rendered()
    }

    /// The usage as ArgumentParser writes it after "USAGE: ": the lines after the first indented by 7.
    static func usageBlock(for command: ParsableCommand.Type) -> String {
        usageString(for: command).split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated().map { $0.offset == 0 || $0.element.isEmpty ? String($0.element) : "       " + $0.element }
            .joined(separator: "\n")
    }
}

/// Commands with nothing but ArgumentParser's own flags, for their rows in a root's glance.
private struct BuiltInFlags: ParsableCommand {}
private struct VersionedBuiltInFlags: ParsableCommand {
    static let configuration = CommandConfiguration(version: "0")
}
