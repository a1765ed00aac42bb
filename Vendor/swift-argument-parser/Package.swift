// swift-tools-version:6.0
//===----------------------------------------------------------------------===//
//
// This source file is part of the Swift Argument Parser open source project
//
// Copyright (c) 2020 Apple Inc. and the Swift project authors
// Licensed under Apache License v2.0 with Runtime Library Exception
//
// See https://swift.org/LICENSE.txt for license information
//
//===----------------------------------------------------------------------===//

// swift-argument-parser 1.8.2 as ps-tools uses it: the library's two targets, and the
// generate-manual plugin and tool that scripts/generate-docs runs (no other plugin, no examples
// or tests), with the changes that VENDORED.md describes.
import PackageDescription

// As for a package fetched by URL, the library's own warnings (deprecations it keeps for its
// users) are not ps-tools' build's.
let quiet: [SwiftSetting] = [.unsafeFlags(["-suppress-warnings"])]

let package = Package(
  name: "swift-argument-parser",
  products: [
    .library(name: "ArgumentParser", targets: ["ArgumentParser"]),
    .plugin(name: "GenerateManual", targets: ["GenerateManual"]),
  ],
  targets: [
    .target(name: "ArgumentParser", dependencies: ["ArgumentParserToolInfo"], swiftSettings: quiet),
    .target(name: "ArgumentParserToolInfo", swiftSettings: quiet),
    .plugin(
      name: "GenerateManual",
      capability: .command(
        intent: .custom(
          verb: "generate-manual",
          description: "Generate a manual entry for a specified target.")),
      dependencies: ["generate-manual"]),
    .executableTarget(
      name: "generate-manual",
      dependencies: ["ArgumentParser", "ArgumentParserToolInfo"],
      path: "Tools/generate-manual",
      swiftSettings: quiet),
  ]
)
