import Foundation
import PSCore
import Testing
@testable import PSNet

@Suite struct ConfigTests {
    let home: String

    init() throws {
        home = NSTemporaryDirectory() + "psnet-config-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    var environment: [String: String] { ["HOME": home, "XDG_CONFIG_HOME": home + "/xdg"] }
    var paths: ConfigPaths { ConfigPaths(environment: environment) }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! NSNumber).intValue
    }

    func storeLogin(profile: String = "default", server: String, api: APIKind?, token: String) throws {
        var config = try ConfigFile.load(paths.config)
        config[profile] = Profile(server: server, api: api, user: ["name": "Demo"])
        if config.defaultProfile == nil { config.defaultProfile = profile }
        try config.save(paths.config)
        var store = try CredentialStore.load(paths.credentials)
        store[profile] = Credentials(token: token, csrfToken: "csrf", deviceToken: "dev")
        try store.save(paths.credentials)
    }

    @Test func pathsFollowXDGWithAFallback() {
        #expect(ConfigPaths(environment: ["HOME": "/h", "XDG_CONFIG_HOME": "/x"]).credentials == "/x/ps-tools/credentials.json")
        #expect(ConfigPaths(environment: ["HOME": "/h"]).config == "/h/.config/ps-tools/config.json")
        // A relative XDG_CONFIG_HOME is invalid per the spec and ignored.
        #expect(ConfigPaths(environment: ["HOME": "/h", "XDG_CONFIG_HOME": "rel"]).directory == "/h/.config/ps-tools")
    }

    @Test func credentialsAreWrittenWithMode0600AndReadBack() throws {
        umask(0o022)
        try storeLogin(server: "http://a", api: .pagespace, token: "ps_sess_1")
        #expect(try mode(paths.credentials) == 0o600)
        #expect(try mode(paths.directory) == 0o700)
        let store = try CredentialStore.load(paths.credentials)
        #expect(store["default"] == Credentials(token: "ps_sess_1", csrfToken: "csrf", deviceToken: "dev"))
        #expect(try ConfigFile.load(paths.config)["default"] == Profile(server: "http://a", api: .pagespace, user: ["name": "Demo"]))
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: paths.directory).sorted() == ["config.json", "credentials.json"])
    }

    @Test func aCredentialsFileOthersCanReadIsRefused() throws {
        try storeLogin(server: "http://a", api: .pagespace, token: "ps_sess_1")
        chmod(paths.credentials, 0o644)
        let error = #expect(throws: ToolError.self) { try CredentialStore.load(paths.credentials) }
        #expect(error?.status == .authenticationNeeded)
        #expect(error?.message.contains("chmod 600 \(paths.credentials)") == true)
        #expect(error?.message.contains("ps_sess_1") == false)
        // The session refuses it too, unless the environment gives the token.
        #expect(throws: ToolError.self) { try Session.resolve(profile: nil, server: nil, api: nil, environment: environment) }
        var withToken = environment
        withToken["PAGESPACE_TOKEN"] = "mcp_env"
        #expect(try Session.resolve(profile: nil, server: nil, api: nil, environment: withToken).credentials?.token == "mcp_env")
        chmod(paths.credentials, 0o640)
        #expect(throws: ToolError.self) { try CredentialStore.load(paths.credentials) }
        chmod(paths.credentials, 0o600)
        #expect(try CredentialStore.load(paths.credentials)["default"]?.token == "ps_sess_1")
    }

    @Test func environmentOverridesStoredSettingsAndOptionsOverrideEnvironment() throws {
        try storeLogin(server: "http://stored/", api: .pagespaceLegacy, token: "eyJ.stored.jwt")
        let stored = try Session.resolve(profile: nil, server: nil, api: nil, environment: environment)
        #expect(stored.server == "http://stored")
        #expect(stored.serverSource == .file(paths.config))
        #expect(stored.credentials?.token == "eyJ.stored.jwt")
        #expect(stored.credentialsSource == .file(paths.credentials))
        #expect(stored.api == .pagespaceLegacy)

        var env = environment
        env["PAGESPACE_TOKEN"] = "ps_sess_env"
        env["PAGESPACE_API_URL"] = "http://env"
        let fromEnv = try Session.resolve(profile: nil, server: nil, api: nil, environment: env)
        #expect(fromEnv.credentials == Credentials(token: "ps_sess_env"))
        #expect(fromEnv.credentialsSource == .environment("PAGESPACE_TOKEN"))
        #expect(fromEnv.server == "http://env")
        #expect(fromEnv.serverSource == .environment("PAGESPACE_API_URL"))
        // The stored API kind belongs to the stored server, not to another one.
        #expect(fromEnv.api == nil)

        let fromOptions = try Session.resolve(profile: nil, server: "http://opt", api: .pagespace, environment: env)
        #expect(fromOptions.server == "http://opt" && fromOptions.serverSource == .option("--server"))
        #expect(fromOptions.api == .pagespace)
    }

    @Test func profileSelection() throws {
        try storeLogin(profile: "work", server: "http://work", api: .pagespace, token: "ps_sess_work")
        try storeLogin(profile: "home", server: "http://home", api: .pagespace, token: "ps_sess_home")
        // The first profile logged in to became the default.
        #expect(try Session.resolve(profile: nil, server: nil, api: nil, environment: environment).profileName == "work")
        var env = environment
        env["PS_PROFILE"] = "home"
        let home = try Session.resolve(profile: nil, server: nil, api: nil, environment: env)
        #expect(home.profileName == "home" && home.credentials?.token == "ps_sess_home" && home.server == "http://home")
        #expect(try Session.resolve(profile: "work", server: nil, api: nil, environment: env).credentials?.token == "ps_sess_work")
        let unknown = try Session.resolve(profile: "none", server: nil, api: nil, environment: env)
        #expect(unknown.credentials == nil && unknown.server == Session.defaultServer)
        #expect(throws: ToolError.self) { try unknown.requireCredentials() }
    }

    @Test func detectedKindIsRememberedOnlyForTheSameServer() throws {
        try storeLogin(server: "http://a", api: nil, token: "tok")
        var session = try Session.resolve(profile: nil, server: nil, api: nil, environment: environment)
        session.rememberAPI(.pagespaceLegacy)
        #expect(try ConfigFile.load(paths.config)["default"]?.api == .pagespaceLegacy)
        var other = try Session.resolve(profile: nil, server: "http://b", api: nil, environment: environment)
        other.rememberAPI(.pagespace)
        #expect(try ConfigFile.load(paths.config)["default"]?.api == .pagespaceLegacy)
    }

    @Test func exportStateIsReplacedAtomically() throws {
        let path = home + "/state.json"
        let mark = HistoryWatermark(
            lastMessageID: "m5", lastCreatedAt: "2026-01-01T00:00:05.000Z", idsAtLastCreatedAt: ["m4", "m5"],
            anchorMessageID: "m3")
        let bare = HistoryWatermark(lastMessageID: "m1", lastCreatedAt: nil, idsAtLastCreatedAt: ["m1"], anchorMessageID: nil)
        do {  // the state holds the file's lock until it is gone
            var state = try ExportState.load(path)
            #expect(state.watermark(for: "global:c") == nil)
            try state.record(mark, for: "global:c")
            try state.record(bare, for: "page:p:")
            try state.save()
        }
        let again = try ExportState.load(path)
        #expect(again.watermark(for: "global:c") == mark)
        #expect(again.watermark(for: "page:p:") == bare)
        _ = consume again
        #expect(try FileManager.default.contentsOfDirectory(atPath: home).filter { $0.contains("tmp") }.isEmpty)
        // A file from before timestamps were kept still names the last message.
        try #"{"version":1,"conversations":{"global:c":{"lastMessageId":"m9"}}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try ExportState.load(path).watermark(for: "global:c")?.lastMessageID == "m9")
        try "not json".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ToolError.self) { try ExportState.load(path) }
    }

    @Test func watermarksTellNewFromOldAcrossTiesAndDeletions() {
        let mark = HistoryWatermark(
            lastMessageID: "b", lastCreatedAt: "2026-01-01T00:00:10.000Z", idsAtLastCreatedAt: ["a", "b"], anchorMessageID: "z")
        #expect(!mark.isNew(id: "a", createdAt: "2026-01-01T00:00:10.000Z"))
        #expect(mark.isNew(id: "c", createdAt: "2026-01-01T00:00:10.000Z"))
        #expect(!mark.isNew(id: "y", createdAt: "2026-01-01T00:00:09.000Z"))
        #expect(mark.isNew(id: "d", createdAt: "2026-01-01T00:00:11.000Z"))
    }
}
