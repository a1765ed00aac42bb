import Foundation
import Testing
import TestSupport

/// A 404 is explained by what the server shows itself to be: the other PageSpace generation
/// only when it says so (`/api/version` on today's server; the legacy login's field errors,
/// apps/web/src/app/api/auth/login/route.ts:20-38 at 458264c5b), else no PageSpace at all at
/// that address, named.
@Suite struct ServerIdentityTests {
    /// Python's own `http.server` serving an empty folder: a plain web server no one here wrote.
    static func plainWebServer(in folder: String) throws -> (ChildProcess, String) {
        let root = folder + "/www"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let child = try ChildProcess.spawn(
            "/usr/bin/python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root],
            environment: Run.environment())
        // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
        let line = String(decoding: child.readStdoutLine(timeout: 20), as: UTF8.self)
        guard let range = line.range(of: "(http://"), let end = line[range.upperBound...].firstIndex(of: ")") else {
            child.signalGroup(SIGKILL)
            throw LocalServerError("python3 -m http.server did not start: \(line.debugDescription)")
        }
        var url = "http://" + line[range.upperBound..<end]
        if url.hasSuffix("/") { url.removeLast() }
        return (child, url)
    }

    static let jwtLike = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"

    @Test func aPlainWebServerIsNoPageSpaceOfEitherGeneration() throws {
        let sandbox = try NetworkSandbox()
        let (web, url) = try Self.plainWebServer(in: sandbox.directory)
        defer { web.signalGroup(SIGKILL); _ = web.wait() }
        let cases: [(token: String, kind: String?)] = [
            (LocalServer.sessionToken, "pagespace"), (Self.jwtLike, "pagespace-legacy"),
            ("an-opaque-token", nil),  // no kind and a token of no known shape: detection asks
        ]
        for (token, kind) in cases {
            var env = ["PAGESPACE_TOKEN": token, "PAGESPACE_API_URL": url + "/wrongpath"]
            if let kind { env["PAGESPACE_API_KIND"] = kind }
            let run = try sandbox.run("ps-history", ["--list"], env: env)
            #expect(run.status == 6, "\(kind ?? "detected"): \(run.stderrText)")
            #expect(run.stderrText.hasPrefix("ps-history: "))
            #expect(run.stderrText.contains("no PageSpace server answers at \(url)/wrongpath"), "\(run.stderrText)")
            #expect(!run.stderrText.contains("legacy API"), "\(run.stderrText)")
            #expect(run.stderrText.split(separator: "\n").count == 1, "\(run.stderrText)")
        }
        // A password in the URL is refused before any request, and never echoed.
        let withPassword = url.replacingOccurrences(of: "http://", with: "http://someone:hunter2@")
        let run = try sandbox.run("ps-history", ["--list"], env: [
            "PAGESPACE_TOKEN": LocalServer.sessionToken, "PAGESPACE_API_URL": withPassword, "PAGESPACE_API_KIND": "pagespace",
        ])
        #expect(run.status == 2)
        #expect(run.stderrText.contains("holds a user name or password"), "\(run.stderrText)")
        #expect(!run.stderrText.contains("hunter2"))
    }

    @Test(arguments: LocalServer.dialects)
    func aWrongPathOnAPageSpaceServerIsNamed(dialect: String) throws {
        let server = try LocalServer.start(dialect: dialect)
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        let token = dialect == "pagespace" ? LocalServer.sessionToken : try server.legacyLogin().token
        let run = try sandbox.run("ps-history", ["--list"], env: [
            "PAGESPACE_TOKEN": token, "PAGESPACE_API_URL": server.baseURL + "/wrongpath", "PAGESPACE_API_KIND": dialect,
        ])
        #expect(run.status == 6, "\(run.stderrText)")
        #expect(run.stderrText.contains("no PageSpace server answers at \(server.baseURL)/wrongpath"), "\(run.stderrText)")
        #expect(!run.stderrText.contains("speaks the"), "\(run.stderrText)")
    }

    @Test func eachGenerationIsNamedOnlyWhenItShowsItself() throws {
        let current = try LocalServer.start()
        defer { current.stop() }
        let legacy = try LocalServer.start(dialect: "pagespace-legacy")
        defer { legacy.stop() }
        let sandbox = try NetworkSandbox()
        let (jwt, _) = try legacy.legacyLogin()
        // A legacy credential against today's server: /api/version names it.
        let onCurrent = try sandbox.run("ps-history", ["--list"], env: [
            "PAGESPACE_TOKEN": jwt, "PAGESPACE_API_URL": current.baseURL, "PAGESPACE_API_KIND": "pagespace-legacy",
        ])
        #expect(onCurrent.status == 6, "\(onCurrent.stderrText)")
        #expect(onCurrent.stderrText.contains("this server speaks the pagespace API, not pagespace-legacy"), "\(onCurrent.stderrText)")
        // Detection (a token of no known shape) tells the two apart.
        for (server, kind) in [(current, "pagespace"), (legacy, "pagespace-legacy")] {
            let status = try sandbox.run("ps-auth", ["status", "--server", server.baseURL], env: ["PAGESPACE_TOKEN": "opaque"])
            #expect(status.stdoutText.contains(kind) || status.stderrText.contains(kind), "\(status.stdoutText) \(status.stderrText)")
        }
    }

    /// apps/web/src/app/api/auth/login/route.ts:20-38 at 458264c5b: a login with no fields is
    /// zod's field errors, before any rate limit or lookup.
    @Test func theLegacyLoginAnswersMissingFieldsAsZodDoes() throws {
        let legacy = try LocalServer.start(dialect: "pagespace-legacy")
        defer { legacy.stop() }
        let empty = try legacy.request("POST", "/api/auth/login", body: "{}")
        #expect(empty.status == 400)
        let errors = try empty.jsonObject()["errors"] as? [String: [String]]
        #expect(errors?["email"] == ["Invalid input: expected string, received undefined"])
        #expect(errors?["password"] == ["Invalid input: expected string, received undefined"])
        let blank = try legacy.request("POST", "/api/auth/login", body: #"{"email":"nobody","password":""}"#)
        #expect(try blank.jsonObject()["errors"] as? [String: [String]] == ["email": ["Invalid email address"], "password": ["Password is required"]])
    }

    /// The legacy server (458264c5b) has no /api/version: 404 with or without a credential.
    /// Its middleware.ts, which would have answered 401 first, never ran (d57701900).
    @Test func theLegacyServerHasNoVersionRoute() throws {
        let legacy = try LocalServer.start(dialect: "pagespace-legacy")
        defer { legacy.stop() }
        let version = try legacy.request("GET", "/api/version")
        #expect(version.status == 404)
        let (token, _) = try legacy.legacyLogin()
        let withToken = try legacy.request("GET", "/api/version", headers: ["Authorization": "Bearer \(token)"])
        #expect(withToken.status == 404)
    }
}
