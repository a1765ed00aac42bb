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
}
