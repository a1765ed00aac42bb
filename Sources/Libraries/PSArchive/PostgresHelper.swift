#if canImport(Glibc)
import Glibc
#endif
import PSCore

/// ps-archive-postgres, the PostgreSQL half of the archive: the only executable that links
/// PostgresNIO (swift-nio's modules cost every start-up of what links them). ps-archive hands it
/// a run on a postgresql:// archive (`replaceProcess`), ps-search runs it for a search
/// (SearchHelper). It is an internal helper, not a command: it lies beside the running
/// executable (the build folder), else in ../lib/ps-tools/ relative to it (`make install`).
public enum PostgresHelper {
    public static let name = "ps-archive-postgres"

    /// The folders it is looked for in (InternalHelper).
    public static func folders() -> [String] { InternalHelper.folders() }

    /// Its path; without it, exit 1 saying so and where it was looked for, after `purpose`
    /// ("cannot open a PostgreSQL archive").
    public static func locate(for purpose: String) throws -> String {
        let folders = folders()
        if let found = InternalHelper.path(name) { return found }
        let places = folders.isEmpty ? "the folder of \(Diagnostics.programName) is unknown"
            : "neither in " + folders.joined(separator: " nor in ")
        throw ToolError(.failure, "\(purpose): \(name) is not installed (\(places))")
    }

    /// Replaces this process with the helper (execv): the same argv, environment and open
    /// descriptors, so that what it writes, its exit status and its signals are this run's.
    /// Returns only by throwing (exit 1), when it is missing or cannot be run.
    public static func replaceProcess(for purpose: String) throws -> Never {
        let path = try locate(for: purpose)
        execv(path, CommandLine.unsafeArgv)
        throw ToolError(.failure, "\(purpose): cannot run \(path): \(String(cString: strerror(errno)))")
    }
}
