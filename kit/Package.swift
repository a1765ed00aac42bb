// swift-tools-version:6.2
import Foundation
import PackageDescription

// The libraries every command shares, as one shared object: libPSKit.so, which `make install`
// and `make deb` put in lib/ps-tools beside the Swift runtime. SwiftPM links a package's own
// library targets into each of its executables (a copy of them in every command); a dynamic
// library product of another package it links as a shared object. So the shared libraries are
// this package, on which ps-tools depends: its targets are ps-tools' own folders of
// Sources/Libraries and Sources/Shims (kit/Sources holds links to them), and ArgumentParser is
// linked into libPSKit.so too.

// The toolkit's version: the file VERSION (one line), which every command's --version prints and
// `make deb` names the packages after.
let version = try String(contentsOfFile: Context.packageDirectory + "/../VERSION", encoding: .utf8)
    .trimmingCharacters(in: .whitespacesAndNewlines)

let package = Package(
    name: "kit",
    products: [
        // PSCore: JSON, NDJSON I/O, exit codes, terminal, stream parsing and message assembly;
        // PSRender: cmark-gfm; PSNet: libcurl, profiles, credentials, API adapters.
        .library(name: "PSKit", type: .dynamic, targets: ["PSCore", "PSRender", "PSNet"]),
    ],
    dependencies: [
        // swift-argument-parser 1.8.2, changed to link no Foundation: Vendor/swift-argument-parser/VENDORED.md.
        .package(path: "../Vendor/swift-argument-parser"),
    ],
    targets: [
        // C libraries from Debian's -dev packages.
        .systemLibrary(name: "CJansson", pkgConfig: "jansson", providers: [.apt(["libjansson-dev"])]),
        .systemLibrary(
            name: "CCmarkGFM", pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        .target(name: "CToolVersion", cSettings: [.define("PS_TOOLS_VERSION", to: "\"\(version)\"")]),
        // libcurl, opened on the first request (dlopen) rather than linked: a command that makes
        // none never loads it and the libraries it needs. Its header is libcurl4-openssl-dev's.
        .target(name: "CCurl"),
        // Opens the highlighter (ps-tools' product CSourceHighlight) when code is first coloured.
        .target(name: "CSourceHighlightLoader"),

        .target(
            name: "PSCore",
            dependencies: ["CJansson", "CToolVersion", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .target(name: "PSRender", dependencies: ["PSCore", "CCmarkGFM", "CSourceHighlightLoader"]),
        .target(
            name: "PSNet",
            dependencies: ["PSCore", "CCurl", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
    ],
    swiftLanguageModes: [.v5]
)
