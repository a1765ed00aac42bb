import Foundation
import PSCore
import Testing
@testable import PSNet

/// A stored credential belongs to the origin (scheme, host, port) it was given for.
@Suite struct CredentialBindingTests {
    let home: String

    init() throws {
        home = NSTemporaryDirectory() + "psnet-binding-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    var environment: [String: String] { ["HOME": home, "XDG_CONFIG_HOME": home + "/xdg"] }
    var paths: ConfigPaths { ConfigPaths(environment: environment) }

    @Test func sameOriginIgnoresCaseDefaultPortsPathsAndUserInfo() {
        let a = Origin(url: "https://pagespace.ai")
        #expect(a != nil)
        for same in ["HTTPS://PageSpace.AI:443/", "https://pagespace.ai/api/v1?x#y", "https://user:pw@pagespace.ai",
                     "https://pagespace.ai.", " https://pagespace.ai:0443 "] {
            #expect(Origin(url: same) == a, "\(same)")
        }
        for other in ["http://pagespace.ai", "https://pagespace.ai:8443", "https://evil.pagespace.ai",
                      "https://pagespace.ai.evil", "https://evil@pagespace.ai@evil.example", "http://pagespace.ai:443"] {
            #expect(Origin(url: other) != a, "\(other)")
        }
        #expect(Origin(url: "http://127.0.0.1:8080") == Origin(url: "http://127.0.0.1:8080/v1"))
        #expect(Origin(url: "http://127.0.0.1:8080") != Origin(url: "http://127.0.0.1:8081"))
        #expect(Origin(url: "http://[::1]:80/x") == Origin(url: "http://[::1]"))
        #expect(Origin(url: "http://[::1]:8080") != Origin(url: "http://[::1]:8081"))
        // What is not an http(s) URL with a host and a port in range is no origin at all.
        for bad in ["ftp://a", "https://", "https://a:99999", "https://a:1x", "a.example", "https://a:-1", "http://[::1"] {
            #expect(Origin(url: bad) == nil, "\(bad)")
        }
        #expect(Origin(url: "HTTP://Example.com:80/")?.description == "http://example.com")
        #expect(Origin(url: "https://example.com:8443")?.description == "https://example.com:8443")
    }

    func login(profile: String = "default", server: String, token: String) throws {
        let session = try Session.resolve(profile: profile, server: server, api: nil, environment: environment)
        try session.store(Credentials(token: token, csrfToken: "csrf"), api: .pagespace, user: nil)
    }

    @Test func aStoredCredentialGoesOnlyToItsOrigin() throws {
        try login(server: "http://a.example:8080/", token: "ps_sess_a")
        #expect(try CredentialStore.load(paths.credentials)["default"]?.origin == Origin(url: "http://a.example:8080"))
        for same in [nil, "http://A.example:8080", "http://a.example:8080/api/v1"] {
            let session = try Session.resolve(profile: nil, server: same, api: nil, environment: environment)
            #expect(session.credentials?.token == "ps_sess_a", "\(same ?? "stored")")
        }
        var fromEnvironment = environment
        fromEnvironment["PAGESPACE_API_URL"] = "http://b.example:8080"
        for (server, env) in [("http://b.example:8080", environment), ("https://a.example:8080", environment),
                              ("http://a.example:8081", environment), (nil, fromEnvironment)] as [(String?, [String: String])] {
            let session = try Session.resolve(profile: nil, server: server, api: nil, environment: env)
            #expect(session.credentials == nil)
            #expect(session.credentialsHeldBackFor == Origin(url: "http://a.example:8080"))
            let error = #expect(throws: ToolError.self) { try session.requireCredentials() }
            #expect(error?.status == .authenticationNeeded)
            #expect(error?.message.contains("not logged in to \(session.server)") == true)
            #expect(error?.message.contains("ps-auth login --server \(session.server) --profile NAME") == true)
            #expect(error?.message.contains("ps_sess_a") == false)
        }
        // A token given for the run is the user's choice and goes where they say.
        var withToken = fromEnvironment
        withToken["PAGESPACE_TOKEN"] = "mcp_mine"
        #expect(try Session.resolve(profile: nil, server: nil, api: nil, environment: withToken).credentials?.token == "mcp_mine")
    }

    @Test func aLoginToAnotherServerReplacesTheProfilesCredentialAndOtherProfilesAreNamed() throws {
        try login(server: "http://a.example", token: "ps_sess_a")
        try login(profile: "b", server: "http://b.example", token: "ps_sess_b")
        let error = #expect(throws: ToolError.self) {
            try Session.resolve(profile: nil, server: "http://B.example:80", api: nil, environment: environment).requireCredentials()
        }
        #expect(error?.message.contains("add `--profile b`") == true)
        try login(server: "http://c.example", token: "ps_sess_c")
        #expect(try Session.resolve(profile: nil, server: nil, api: nil, environment: environment).credentials?.token == "ps_sess_c")
        #expect(try Session.resolve(profile: nil, server: "http://a.example", api: nil, environment: environment).credentials == nil)
    }

    @Test func aCredentialFileWithoutOriginsIsBoundToTheProfilesServer() throws {
        var config = ConfigFile()
        config["default"] = Profile(server: "http://a.example")
        config.defaultProfile = "default"
        try config.save(paths.config)
        var store = CredentialStore()
        store["default"] = Credentials(token: "ps_sess_old")
        store["orphan"] = Credentials(token: "ps_sess_orphan")
        try store.save(paths.credentials)
        #expect(try Session.resolve(profile: nil, server: nil, api: nil, environment: environment).credentials?.token == "ps_sess_old")
        #expect(try Session.resolve(profile: nil, server: "http://b.example", api: nil, environment: environment).credentials == nil)
        // A credential with no profile, hence no server, goes nowhere.
        #expect(try Session.resolve(profile: "orphan", server: "http://a.example", api: nil, environment: environment).credentials == nil)
        // An origin that cannot be read binds to nothing.
        try SecureFile.write(Array(#"{"version":1,"profiles":{"default":{"token":"t","origin":"nonsense"}}}"#.utf8),
                             to: paths.credentials, mode: 0o600)
        #expect(try Session.resolve(profile: nil, server: nil, api: nil, environment: environment).credentials == nil)
    }
}
