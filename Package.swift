// swift-tools-version:6.2
import PackageDescription

// Layout: one core library every command uses (PSCore: JSON, NDJSON I/O, exit
// codes, terminal, stream parsing and message assembly), a renderer library (PSRender:
// cmark-gfm), a network library (PSNet: libcurl, profiles, credentials, API adapters) that the
// pure filters never link, and one executable target per command.
let commandDependencies: [Target.Dependency] = [
    "PSCore",
    .product(name: "ArgumentParser", package: "swift-argument-parser"),
]

// The C++ runtime linked in (libstdc++.a, through the linker script link/libstdc++.so) rather than
// loaded at every start. Not for the commands that link PSRender: the highlighter they may open
// uses the shared libstdc++.so.6, and a process is better off with one copy of it.
let staticCxx: [LinkerSetting] = [.unsafeFlags(["-L", Context.packageDirectory + "/link"])]

let package = Package(
    name: "ps-tools",
    products: [
        .executable(name: "ps-sse", targets: ["ps-sse"]),
        .executable(name: "ps-parts", targets: ["ps-parts"]),
        .executable(name: "ps-render", targets: ["ps-render"]),
        .executable(name: "ps-auth", targets: ["ps-auth"]),
        .executable(name: "ps-send", targets: ["ps-send"]),
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
        // ps-archive's PostgreSQL half, an internal helper (installed in lib/ps-tools, not a command).
        .executable(name: "ps-archive-postgres", targets: ["ps-archive-postgres"]),
        .executable(name: "ps-local-server", targets: ["ps-local-server"]),
        // libCSourceHighlight.so: the highlighter, opened by PSRender the first time code is coloured.
        .library(name: "CSourceHighlight", type: .dynamic, targets: ["CSourceHighlight"]),
    ],
    dependencies: [
        // swift-argument-parser 1.8.2, changed to start faster and to link no Foundation:
        // Vendor/swift-argument-parser/VENDORED.md.
        .package(path: "Vendor/swift-argument-parser"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // C libraries from Debian's -dev packages.
        .systemLibrary(name: "CJansson", pkgConfig: "jansson", providers: [.apt(["libjansson-dev"])]),
        .systemLibrary(
            name: "CCmarkGFM", pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        // SQLite from Debian's static libsqlite3.a (module.modulemap links ":libsqlite3.a"; no
        // pkg-config, which would add the shared library too): Debian builds libsqlite3.so with
        // -z now, so every start of ps-search or ps-archive bound all 1,510 of its symbols, a
        // tenth of ps-search's start-up (ps-search --version 10.3M instructions, shared 11.4M).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),

        // Libraries.
        .target(
            name: "PSCore",
            dependencies: ["CJansson", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // GNU source-highlight (C++) behind a C function, for the colours of fenced code: a shared
        // object of its own (the product above), which no target links; CSourceHighlightLoader
        // opens it (dlopen) when code is first coloured, so that a render in a pipe never loads
        // it, libboost_regex and ICU.
        // Linked by swiftc, which adds the Swift runtime to any image it links, though this one
        // has no Swift: -nostartfiles leaves out swiftrt.o, the one object that asks for the
        // runtime, so nothing of the static libraries that -static-stdlib names is linked in
        // (no dependency on the toolchain's libswiftCore.so either, which a command, static
        // itself, would load as a second runtime, and an installed copy may not find). The
        // library is then 35 KB of code instead of 3.8 MB, and ps-render's memory 1.1 MB less.
        .target(
            name: "CSourceHighlight",
            linkerSettings: [.linkedLibrary("source-highlight"), .linkedLibrary("boost_regex"),
                             .unsafeFlags(["-static-stdlib", "-nostartfiles"])]),
        // libcurl, opened on the first request (dlopen) rather than linked: a command that makes
        // none never loads it and its thirty libraries. Its header is libcurl4-openssl-dev's.
        .target(name: "CCurl"),
        .target(name: "CSourceHighlightLoader"),
        .target(name: "PSRender", dependencies: ["PSCore", "CCmarkGFM", "CSourceHighlightLoader"]),
        // What ps-send checks and reads before sending: the secrets scanner, attached files.
        .target(name: "PSSend", dependencies: ["PSCore"]),
        // The message archive (SQLite with FTS5): no network code.
        .target(name: "PSArchive", dependencies: ["PSCore", "CSQLite"]),
        // The same archive in PostgreSQL (--db postgresql://…); only the helper ps-archive-postgres
        // links it: ps-archive hands it a PostgreSQL run (exec), ps-search runs it with
        // --serve-search, so that neither one's start-up loads NIO.
        .target(name: "PSArchivePostgres", dependencies: ["PSArchive", .product(name: "PostgresNIO", package: "postgres-nio")]),
        // ps-archive's command (options, ingest, --stats, --export), which ps-archive-postgres runs too.
        .target(name: "PSArchiveCommand", dependencies: commandDependencies + ["PSArchive"]),
        .target(
            name: "PSNet",
            dependencies: ["PSCore", "CCurl", .product(name: "ArgumentParser", package: "swift-argument-parser")]),

        // Pure filters: no network code.
        .executableTarget(name: "ps-sse", dependencies: commandDependencies, linkerSettings: staticCxx),
        .executableTarget(name: "ps-parts", dependencies: commandDependencies, linkerSettings: staticCxx),
        .executableTarget(name: "ps-render", dependencies: commandDependencies + ["PSRender"]),
        .executableTarget(name: "ps-archive", dependencies: commandDependencies + ["PSArchiveCommand"], linkerSettings: staticCxx),
        .executableTarget(name: "ps-archive-postgres", dependencies: commandDependencies + ["PSArchiveCommand", "PSArchivePostgres"], linkerSettings: staticCxx),

        // Commands that talk to a server.
        .executableTarget(name: "ps-auth", dependencies: commandDependencies + ["PSNet"], linkerSettings: staticCxx),
        .executableTarget(name: "ps-send", dependencies: commandDependencies + ["PSNet", "PSRender", "PSSend"]),
        .executableTarget(name: "ps-history", dependencies: commandDependencies + ["PSNet"], linkerSettings: staticCxx),
        .executableTarget(name: "ps-message", dependencies: commandDependencies + ["PSNet"], linkerSettings: staticCxx),
        .executableTarget(name: "ps-facts", dependencies: commandDependencies + ["PSNet"], linkerSettings: staticCxx),
        .executableTarget(name: "ps-summary", dependencies: commandDependencies + ["PSNet", "PSRender"]),
        .executableTarget(name: "ps-settings", dependencies: commandDependencies + ["PSNet"], linkerSettings: staticCxx),
        .executableTarget(name: "ps-agents", dependencies: commandDependencies + ["PSNet", "PSRender"]),
        .executableTarget(name: "ps-keys", dependencies: commandDependencies + ["PSNet"], linkerSettings: staticCxx),
        .executableTarget(name: "ps-models", dependencies: commandDependencies + ["PSNet"], linkerSettings: staticCxx),
        .executableTarget(name: "ps-search", dependencies: commandDependencies + ["PSNet", "PSArchive"], linkerSettings: staticCxx),

        // The local PageSpace server for tests and the demo.
        .executableTarget(
            name: "ps-local-server",
            dependencies: commandDependencies + ["PSNet", .product(name: "Hummingbird", package: "hummingbird")],
            path: "Twin/ps-local-server",
            resources: [.copy("PageSpace/Models/model-catalog.json")]),

        // Tests.
        .target(name: "TestSupport", dependencies: ["PSCore"], path: "Tests/TestSupport"),
        .testTarget(name: "PSCoreTests", dependencies: ["PSCore", "TestSupport", "CJansson"]),
        .testTarget(name: "PSRenderTests", dependencies: ["PSRender", "TestSupport"], exclude: ["Golden"]),
        .testTarget(name: "PSNetTests", dependencies: ["PSNet", "TestSupport"]),
        .testTarget(name: "PSSendTests", dependencies: ["PSSend", "TestSupport"]),
        .testTarget(name: "PSArchiveTests", dependencies: ["PSArchive", "PSArchivePostgres", "TestSupport"]),
        .testTarget(name: "CommandTests", dependencies: ["PSCore", "PSNet", "TestSupport"], exclude: ["FuzzCorpus", "Terminal", "Hostile"]),
    ],
    swiftLanguageModes: [.v5]
)
