import Foundation
import Testing
import TestSupport

/// No command loads Foundation: the vendored swift-argument-parser does without it
/// (Vendor/swift-argument-parser/VENDORED.md), and no command's own code imports it, so that a
/// release build does not carry it (its size, its protocol conformances the Swift runtime scans
/// at start). Read from the dynamic loader's account of the files it opens: a debug
/// build links Foundation as a shared library when anything uses it.
@Suite struct FoundationLoadingTests {
    static let commands = [
        "ps-sse", "ps-parts", "ps-render", "ps-auth", "ps-send", "ps-batch", "ps-history", "ps-message", "ps-facts", "ps-summary",
        "ps-settings", "ps-agents", "ps-keys", "ps-models", "ps-search", "ps-archive",
    ]

    @Test(arguments: commands)
    func aCommandNeverLoadsFoundation(_ command: String) throws {
        for arguments in [["--version"], ["--no-such-option-anywhere"]] {
            let result = try Run.command(command, arguments, environment: ["LD_DEBUG": "files"], timeout: 30)
            let files = LibcurlLoadingTests.loadedFiles(result)
            #expect(files.contains("libswiftCore.so") || files.contains("libjansson.so.4"),
                    "\(command) \(arguments): the loader's account is missing")
            #expect(!files.contains { $0.hasPrefix("libFoundation") }, "\(command) \(arguments) loaded Foundation")
        }
    }
}
