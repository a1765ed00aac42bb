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
        refuseUnknownSubcommand(arguments ?? Array(CommandLine.arguments.dropFirst()))
        do {
            var command = try parseAsRoot(arguments)
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
                self.exit(withError: error)  // --help, --version: ArgumentParser prints them.
            }
            if code == .validationFailure {
                Diagnostics.writeLine(fullMessage(for: error))
                Glibc.exit(ExitStatus.usage.rawValue)
            }
            Diagnostics.error(fullMessage(for: error))
            Glibc.exit(code == .failure ? ExitStatus.failure.rawValue : code.rawValue)
        }
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
}
