import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

extension ParsableCommand {
    /// The entry point every ps-* command uses instead of `main()`, and the one place a command
    /// exits: usage errors exit 2, a ToolError prints one line and exits with its status, an
    /// ExitRequest (a closed output pipe, an incomplete stream already reported) exits quietly.
    public static func runAsTool(_ arguments: [String]? = nil) -> Never {
        FileDescriptorOutput.ignoreBrokenPipeSignal()
        let arguments = arguments ?? Array(CommandLine.arguments.dropFirst())
        refuseUnknownSubcommand(arguments)
        refuseEmptyAttachedValue(arguments)
        let parsed = LeadingOptions.reordered(arguments, for: self)
        do {
            var command = try parseAsRoot(parsed)
            if let problem = InputLimits.environmentProblem() { throw ToolError(.usage, problem) }
            try command.run()
            Glibc.exit(ExitStatus.success.rawValue)
        } catch let request as ExitRequest {
            Glibc.exit(request.status.rawValue)
        } catch let error as ToolError {
            Diagnostics.error(error.message)
            Glibc.exit(error.status.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                if !arguments.contains("--help-hidden"), let glance = glanceHelp(for: error) {
                    _ = FileDescriptorOutput.writeAll(fd: 1, Array(glance.utf8))
                    Glibc.exit(ExitStatus.success.rawValue)
                }
                self.exit(withError: error)  // --version, the dump: ArgumentParser prints them.
            }
            if code == .validationFailure {
                for line in usageErrorLines(for: unknownOption(besides: error, in: parsed) ?? error) {
                    Diagnostics.writeLine(line)
                }
                Glibc.exit(ExitStatus.usage.rawValue)
            }
            Diagnostics.error(fullMessage(for: error))
            Glibc.exit(code == .failure ? ExitStatus.failure.rawValue : code.rawValue)
        }
    }

    /// `--help` (or `help SUBCOMMAND`) as a glance of one screen; nil for other clean exits.
    static func glanceHelp(for error: Error) -> String? {
        let message = fullMessage(for: error)
        guard message.hasPrefix("OVERVIEW:") || message.hasPrefix("USAGE:") else { return nil }
        var dump = ""
        do { _ = try parseAsRoot(["--experimental-dump-help"]) } catch { dump = fullMessage(for: error) }
        return GlanceHelp(helpMessage: message, dump: dump)?.rendered()
    }

    /// ArgumentParser names a missing argument before an unknown option (`ps-search --bogus`
    /// would say the query is missing): the parser's error for the same words with the missing
    /// arguments filled in, when that is an unknown option, so the mistake made is the one named.
    static func unknownOption(besides error: Error, in arguments: [String]) -> Error? {
        var filled = arguments.contains("--") ? arguments : arguments + ["--"]
        var error = error
        for _ in 0..<4 {
            let message = fullMessage(for: error)
            if message.hasPrefix("Error: Unknown option") { return error }
            guard message.hasPrefix("Error: Missing expected argument") || message.hasPrefix("Error: Missing one of") else { break }
            filled.append("argument")
            do { _ = try parseAsRoot(filled) } catch let next { error = next; continue }
            break
        }
        return nil
    }

    /// A parser error in the toolkit's one format: `ps-NAME: the problem`, then the usage line
    /// and where to read more. ArgumentParser answers a command run with no arguments at all
    /// with its whole help after the problem; the problem and the usage line are enough.
    static func usageErrorLines(for error: Error) -> [String] {
        var lines = fullMessage(for: error).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        if lines.contains(where: { $0.hasPrefix("OVERVIEW:") || $0.hasPrefix("USAGE:") }) {
            lines = Array(lines.prefix(1).filter { $0.hasPrefix("Error: ") })
                + ["Usage: \(usageString())", "  See '\(_commandName) --help' for more information."]
        }
        lines.removeAll { $0.hasPrefix("Help: ") }
        guard let first = lines.first else { return ["\(Diagnostics.programName): invalid usage"] }
        if first.hasPrefix("Error: ") {
            var problem = String(first.dropFirst("Error: ".count))
            if let initial = problem.first, initial.isUppercase, problem.dropFirst().first?.isLowercase == true {
                problem = initial.lowercased() + problem.dropFirst()
            }
            lines[0] = "\(Diagnostics.programName): \(problem)"
        } else if !first.hasPrefix("\(Diagnostics.programName): ") {
            lines.insert("\(Diagnostics.programName): invalid usage", at: 0)
        }
        return lines
    }

    /// With a default subcommand, a mistyped subcommand would be taken for an argument of the
    /// default one and answered with its usage: name it instead (exit 2).
    private static func refuseUnknownSubcommand(_ arguments: [String]) {
        guard configuration.defaultSubcommand != nil else { return }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard let first = arguments.first, !first.hasPrefix("-"), !names.contains(first) else { return }
        Diagnostics.error("unknown subcommand '\(first)' (one of: \(names.dropLast().joined(separator: ", ")))")
        Diagnostics.writeLine("See '\(_commandName) --help'.")
        Glibc.exit(ExitStatus.usage.rawValue)
    }

    /// `--name=` with nothing after the `=` (a `$(...)` that found nothing): ArgumentParser would
    /// take the next word as the value, so it is refused here, before anything runs.
    private static func refuseEmptyAttachedValue(_ arguments: [String]) {
        let options = arguments.prefix { $0 != "--" }
        let empty = options.first { word in
            guard word.hasPrefix("--"), word.count > 3, let equals = word.firstIndex(of: "=") else { return false }
            return word.index(after: equals) == word.endIndex
        }
        guard let empty else { return }
        Diagnostics.error("\(empty) has an empty value (did a $(...) find nothing?)")
        Diagnostics.writeLine("See '\(_commandName) --help'.")
        Glibc.exit(ExitStatus.usage.rawValue)
    }
}
