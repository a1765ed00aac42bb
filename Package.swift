// swift-tools-version:6.2
import PackageDescription

// Layout: the libraries every command shares (PSCore: JSON, NDJSON I/O, exit codes, terminal,
// stream parsing and message assembly; PSRender: cmark-gfm; PSNet: libcurl, profiles,
// credentials, API adapters), linked as one shared object, libPSKit.so, from the package kit/
// (kit/Package.swift says why), and one executable target per command. ArgumentParser comes
// with libPSKit.so.
let kit: Target.Dependency = .product(name: "PSKit", package: "kit")
let commandDependencies: [Target.Dependency] = [kit]

let package = Package(
    name: "ps-tools",
    products: [
        .executable(name: "ps-sse", targets: ["ps-sse"]),
        .executable(name: "ps-parts", targets: ["ps-parts"]),
        .executable(name: "ps-render", targets: ["ps-render"]),
        .executable(name: "ps-auth", targets: ["ps-auth"]),
        .executable(name: "ps-send", targets: ["ps-send"]),
        .executable(name: "ps-batch", targets: ["ps-batch"]),
        .executable(name: "ps-history", targets: ["ps-history"]),
        .executable(name: "ps-message", targets: ["ps-message"]),
        .executable(name: "ps-facts", targets: ["ps-facts"]),
        .executable(name: "ps-summary", targets: ["ps-summary"]),
        .executable(name: "ps-settings", targets: ["ps-settings"]),
        .executable(name: "ps-agents", targets: ["ps-agents"]),
        .executable(name: "ps-keys", targets: ["ps-keys"]),
        .executable(name: "ps-models", targets: ["ps-models"]),
        .executable(name: "ps-search", targets: ["ps-search"]),
        .executable(name: "ps-archive", targets: ["ps-archive"]),
        // ps-archive and ps-search on a PostgreSQL archive (package ps-tools-server).
        .executable(name: "ps-archive-postgres", targets: ["ps-archive-postgres"]),
        // ps-send's bridge to MCP servers, an internal helper (lib/ps-tools, package ps-tools-server).
        .executable(name: "ps-mcp", targets: ["ps-mcp"]),
        .executable(name: "ps-local-server", targets: ["ps-local-server"]),
        // libCSourceHighlight.so: the highlighter, opened by PSRender the first time code is coloured.
        .library(name: "CSourceHighlight", type: .dynamic, targets: ["CSourceHighlight"]),
    ],
    dependencies: [
        .package(path: "kit"),
        // swift-argument-parser 1.8.2 (linked through kit), for its generate-manual plugin.
        .package(path: "Vendor/swift-argument-parser"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // The MCP Swift SDK, for ps-mcp alone (it imports Foundation): ps-send stays without both.
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
    ],
    targets: [
        // SQLite, from Debian's -dev package.
        // SQLite from Debian's static libsqlite3.a (module.modulemap links ":libsqlite3.a"; no
        // pkg-config, which would add the shared library too): Debian builds libsqlite3.so with
        // -z now, so every start of ps-search or ps-archive would bind all of its symbols.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),

        // Libraries.
        // GNU source-highlight (C++) behind a C function, for the colours of fenced code: a shared
        // object of its own (the product above), which no target links; CSourceHighlightLoader
        // opens it (dlopen) when code is first coloured, so that a render in a pipe never loads
        // it, libboost_regex and ICU.
        // Linked by swiftc, which adds the Swift runtime to any image it links, though this one
        // has no Swift: -nostartfiles leaves out swiftrt.o, the one object that asks for the
        // runtime, so nothing of the static libraries that -static-stdlib names is linked in, and
        // the library needs no Swift runtime at all (nor a toolchain path to find one).
        .target(
            name: "CSourceHighlight",
            linkerSettings: [.linkedLibrary("source-highlight"), .linkedLibrary("boost_regex"),
                             .unsafeFlags(["-static-stdlib", "-nostartfiles"])]),
        // Prompt templates and the JSON Schema check of answers (ps-send, ps-batch): no network code.
        .target(name: "PSPrompt", dependencies: [kit]),
        // What ps-send and ps-batch check and read before sending: the secrets scanner, attached files.
        .target(name: "PSSend", dependencies: [kit]),
        // The message archive (SQLite with FTS5): no network code.
        .target(name: "PSArchive", dependencies: [kit, "CSQLite"]),
        // The same archive in PostgreSQL (--db postgresql://…); only ps-archive-postgres links it
        // (PostgresNIO needs Foundation, which the package ps-tools leaves out).
        .target(name: "PSArchivePostgres", dependencies: ["PSArchive", .product(name: "PostgresNIO", package: "postgres-nio")]),
        // ps-archive's command (options, ingest, --stats, --export) and the archive search's
        // options and output, which ps-search and ps-archive-postgres share.
        .target(name: "PSArchiveCommand", dependencies: commandDependencies + ["PSArchive"]),

        // Pure filters: no network code.
        .executableTarget(name: "ps-sse", dependencies: commandDependencies),
        .executableTarget(name: "ps-parts", dependencies: commandDependencies),
        .executableTarget(name: "ps-render", dependencies: commandDependencies),
        .executableTarget(name: "ps-archive", dependencies: commandDependencies + ["PSArchiveCommand"]),
        .executableTarget(name: "ps-archive-postgres", dependencies: commandDependencies + ["PSArchiveCommand", "PSArchivePostgres"]),

        // Commands that talk to a server.
        .executableTarget(name: "ps-auth", dependencies: commandDependencies),
        .executableTarget(name: "ps-send", dependencies: commandDependencies + ["PSPrompt", "PSSend"]),
        .executableTarget(name: "ps-batch", dependencies: commandDependencies + ["PSPrompt", "PSSend"]),
        .executableTarget(name: "ps-history", dependencies: commandDependencies),
        .executableTarget(name: "ps-message", dependencies: commandDependencies),
        .executableTarget(name: "ps-facts", dependencies: commandDependencies),
        .executableTarget(name: "ps-summary", dependencies: commandDependencies),
        .executableTarget(name: "ps-settings", dependencies: commandDependencies),
        .executableTarget(name: "ps-agents", dependencies: commandDependencies),
        .executableTarget(name: "ps-keys", dependencies: commandDependencies),
        .executableTarget(name: "ps-models", dependencies: commandDependencies),
        .executableTarget(name: "ps-search", dependencies: commandDependencies + ["PSArchiveCommand"]),

        // ps-send's bridge to MCP servers: the only target linking the MCP SDK (and Foundation).
        .executableTarget(
            name: "ps-mcp",
            dependencies: commandDependencies + [
                .product(name: "MCP", package: "swift-sdk"), .product(name: "Logging", package: "swift-log"),
            ]),

        // The local PageSpace server for tests and the demo.
        .executableTarget(
            name: "ps-local-server",
            dependencies: commandDependencies + [.product(name: "Hummingbird", package: "hummingbird")],
            path: "Twin/ps-local-server",
            resources: [.copy("PageSpace/Models/model-catalog.json")]),

        // Tests.
        .target(name: "TestSupport", dependencies: [kit], path: "Tests/TestSupport"),
        .testTarget(name: "PSCoreTests", dependencies: [kit, "TestSupport"]),
        .testTarget(name: "PSRenderTests", dependencies: [kit, "TestSupport"], exclude: ["Golden"]),
        .testTarget(name: "PSPromptTests", dependencies: ["PSPrompt", "TestSupport"]),
        .testTarget(name: "PSNetTests", dependencies: [kit, "TestSupport"]),
        .testTarget(name: "PSSendTests", dependencies: ["PSSend", "TestSupport"]),
        .testTarget(name: "PSArchiveTests", dependencies: ["PSArchive", "PSArchivePostgres", "TestSupport"]),
        .testTarget(name: "CommandTests", dependencies: [kit, "TestSupport"], exclude: ["FuzzCorpus", "Terminal", "Hostile", "MCP"]),
    ],
    swiftLanguageModes: [.v5]
)

// Where each kind of target lives: Sources/Shims/C* (C system libraries and shims),
// Sources/Libraries/PS*, Sources/Commands/ps-*; the twin in Twin/, tests in Tests/.
for target in package.targets where target.path == nil && target.type != .test {
    let kind = target.name.hasPrefix("ps-") ? "Commands" : target.name.hasPrefix("PS") ? "Libraries" : "Shims"
    target.path = "Sources/\(kind)/\(target.name)"
}
