import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A real PostgreSQL server for the archive's tests, started once per test process from
/// Debian's `postgresql` package (scripts/setup --test installs it): initdb into a scratch folder,
/// then pg_ctl start on a free port on 127.0.0.1 with its unix socket in that folder, password
/// authentication (scram-sha-256). PostgreSQL refuses to run as root, so when the tests run as
/// root (CI) both run as `nobody` through runuser, the scratch folder theirs. Stopped (and the
/// folder removed) when the test process exits. Each test makes its own database.
final class PostgresTestServer: @unchecked Sendable {
    static let user = "ps_tests"
    let folder: String
    let port: Int
    let password: String
    let bin: String

    /// The server, or why there is none: a missing PostgreSQL fails the tests that need it,
    /// saying what to install; it is never skipped.
    static let shared: Result<PostgresTestServer, Error> = Result { try PostgresTestServer() }

    static func require() throws -> PostgresTestServer { try shared.get() }

    private init() throws {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let version = versions.compactMap(Int.init).sorted().last(where: {
            FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb")
        }) else {
            throw PostgresTestError("PostgreSQL is not installed: no /usr/lib/postgresql/*/bin/initdb "
                + "(Debian's postgresql package; scripts/setup --test installs it)")
        }
        bin = "/usr/lib/postgresql/\(version)/bin"
        // In /tmp, not $TMPDIR: nobody must reach it, and the socket's path must stay short.
        folder = "/tmp/ps-pg-\(getpid())-" + UUID().uuidString.prefix(8)
        password = "pw-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data((password + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/pwfile"))
        if getuid() == 0 {
            guard let nobody = getpwnam("nobody") else { throw PostgresTestError("running as root, and there is no user nobody to run PostgreSQL as") }
            for path in [folder, folder + "/pwfile"] { chown(path, nobody.pointee.pw_uid, nobody.pointee.pw_gid) }
        }
        chmod(folder, 0o755)
        port = try FreePort.take()
        try run("initdb", ["-D", folder + "/data", "-U", Self.user, "--auth=scram-sha-256", "--pwfile=" + folder + "/pwfile",
                           "--no-sync", "-E", "UTF8", "--no-locale"])
        try run("pg_ctl", ["-D", folder + "/data", "-l", folder + "/server.log", "-w", "-t", "60", "-o",
                           "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off", "start"])
        Self.running = (bin, folder)
        atexit {
            guard let (bin, folder) = PostgresTestServer.running else { return }
            _ = try? PostgresTestServer.asServerUser(bin + "/pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"])
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    nonisolated(unsafe) static var running: (String, String)?

    /// A new, empty database on the server; its URL (with the password, as a user would type it).
    func newDatabase() throws -> String {
        let name = "archive_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        let result = try Run.run(URL(fileURLWithPath: bin + "/createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", Self.user, String(name)],
                                 stdin: nil, environment: Run.environment(["PGPASSWORD": password]), timeout: 60)
        guard result.status == 0 else { throw PostgresTestError("createdb failed: \(result.stderrText)") }
        return url(String(name))
    }

    func url(_ database: String) -> String { "postgresql://\(Self.user):\(password)@127.0.0.1:\(port)/\(database)" }

    private func run(_ tool: String, _ arguments: [String]) throws {
        let result = try Self.asServerUser(bin + "/" + tool, arguments)
        guard result.status == 0 else {
            let log = (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
            throw PostgresTestError("\(tool) failed (\(result.status)): \(result.stderrText) \(result.stdoutText) \(log)")
        }
    }

    /// Runs a PostgreSQL program as this user, or as nobody when this is root.
    static func asServerUser(_ program: String, _ arguments: [String]) throws -> ProcessResult {
        let environment = Run.environment(["HOME": "/tmp"])
        if getuid() == 0 {
            return try Run.run(URL(fileURLWithPath: "/usr/sbin/runuser"), ["-u", "nobody", "--", program] + arguments,
                               stdin: nil, environment: environment, timeout: 120)
        }
        return try Run.run(URL(fileURLWithPath: program), arguments, stdin: nil, environment: environment, timeout: 120)
    }

}

struct PostgresTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
