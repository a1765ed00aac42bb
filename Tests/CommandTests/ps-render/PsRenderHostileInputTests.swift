import Foundation
import Testing
import TestSupport

/// ps-render against input built to hurt it: deep nesting, wild widths, escape sequences in
/// content. Each case must end quickly (the limits are far above the expected times), with no
/// crash, and nothing from the content may reach the terminal as a control sequence.
@Suite struct PsRenderHostileInputTests {
    static let corpus = Executables.packageRoot.appendingPathComponent("Tests/CommandTests/FuzzCorpus/markdown")

    /// One finished assistant message whose parts are `parts`.
    static func message(_ parts: [[String: Any]]) throws -> Data {
        var data = try JSONSerialization.data(withJSONObject: ["role": "assistant", "parts": parts])
        data.append(0x0A)
        return data
    }

    static func text(_ markdown: String) throws -> Data { try message([["type": "text", "text": markdown]]) }

    static let escape = UInt8(0x1B)

    /// The bytes of `data` outside the escape sequences ps-render writes itself in ansi (SGR
    /// `ESC[...m` and OSC 8 `ESC]8;;...ESC\`): none of them may be a control character.
    static func contentBytes(_ data: Data) -> [UInt8] {
        let text = String(decoding: data, as: UTF8.self)
        let own = try! Regex(#"\x1B\[[0-9;]*m|\x1B\]8;;[\x21-\x7E]*\x1B\\"#)
        return Array(text.replacing(own, with: "").utf8)
    }

    static func hasNoControls(_ bytes: [UInt8]) -> Bool {
        let scalars = String(decoding: bytes, as: UTF8.self).unicodeScalars
        return !scalars.contains { scalar in
            switch scalar.value {
            case 0x0A, 0x09: return false
            case 0..<0x20, 0x7F, 0x80..<0xA0, 0x202A...0x202E, 0x2066...0x2069: return true
            default: return false
            }
        }
    }

    @Test(arguments: ["50000 quotes", "10000 lists", "10000 quotes spaced"])
    func deepNestingRendersFlatAndFast(_ shape: String) throws {
        let markdown: String
        switch shape {
        case "50000 quotes": markdown = String(repeating: ">", count: 50000) + " deep\n"
        case "10000 lists": markdown = String(repeating: "- ", count: 10000) + "deep\n"
        default: markdown = String(repeating: "> ", count: 10000) + "deep\n"
        }
        let start = Date()
        let result = try Run.command("ps-render", ["--format", "plain", "--width", "80"], stdin: try Self.text(markdown), timeout: 60)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdoutText.contains("deep"))
        // Rendered flat below the depth limit: no line wider than asked for.
        #expect(result.stdoutLines.allSatisfy { $0.count <= 80 })
        #expect(Date().timeIntervalSince(start) < 20)
    }

    @Test func fuzzCorpusReplaysWithoutCrashInEveryFormat() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted()
        #expect(files.count >= 10)
        for name in files {
            let markdown = String(decoding: try Data(contentsOf: Self.corpus.appendingPathComponent(name)), as: UTF8.self)
            for format in ["ansi", "plain", "markdown"] {
                let result = try Run.command("ps-render", ["--format", format, "--width", "60"], stdin: try Self.text(markdown), timeout: 60)
                #expect(result.status == 0, "\(name) in \(format): status \(result.status) \(result.stderrText.prefix(300))")
                #expect(Self.hasNoControls(Self.contentBytes(result.stdout)), "\(name) in \(format)")
            }
        }
    }

    @Test func hugeWidthsAreClampedOrRefused() throws {
        let input = try Self.text("a short line\n\n---\n")
        let columns = try Run.command("ps-render", ["--format", "plain"], stdin: input, environment: ["COLUMNS": "99999999999"], timeout: 30)
        #expect(columns.status == 0)
        // The rule spans the clamped width, 1000 columns.
        #expect(columns.stdoutLines.contains { $0 == String(repeating: "─", count: 1000) })
        let wide = try Run.command("ps-render", ["--format", "plain", "--width", "9223372036854775807"], stdin: input, timeout: 30)
        #expect(wide.status == 2)
        #expect(wide.stderrText.contains("--width must be from 10 to 1000"))
        let nonsense = try Run.command("ps-render", ["--format", "plain", "--width", "wide"], stdin: input, timeout: 30)
        #expect(nonsense.status == 2)
        let garbage = try Run.command("ps-render", ["--format", "plain"], stdin: input, environment: ["COLUMNS": "-5x"], timeout: 30)
        #expect(garbage.status == 0)
        #expect(garbage.stdoutLines.contains { $0 == String(repeating: "─", count: 80) })
    }

    @Test(arguments: [["ansi", "--links", "osc8"], ["ansi", "--links", "inline"], ["plain"], ["markdown"]])
    func controlCharactersFromContentNeverReachTheTerminal(_ formatArguments: [String]) throws {
        let format = formatArguments[0]
        let hostile = "\u{1B}[2J\u{1B}]52;c;QUJD\u{07}\u{9B}31m\u{202E}"
        let input = try Self.message([
            ["type": "text", "text": "text \(hostile) [link](http://example.com/\u{9B}]8;;x) <http://a/\u{1B}b>\n"],
            ["type": "reasoning", "text": "thinking \(hostile)"],
            ["type": "tool-search", "toolCallId": "t1", "state": "weird \(hostile)", "input": ["q": hostile]],
            ["type": "tool-fetch", "toolCallId": "t2", "state": "output-error", "input": [:], "errorText": "failed \(hostile)"],
        ])
        let result = try Run.command("ps-render", ["--format"] + formatArguments + ["--tools", "full"], stdin: input, timeout: 30)
        #expect(result.status == 0)
        #expect(Self.hasNoControls(Self.contentBytes(result.stdout)))
        #expect(result.stdoutText.contains("\u{241B}[2J"))  // ESC shown as its control picture
        #expect(result.stdoutText.contains("<U+009B>"))
        #expect(result.stdoutText.contains("<U+202E>"))
        #expect(!result.stdoutText.contains("\u{07}"))
        // In ansi, the only OSC sequences are ps-render's own hyperlinks, with printable targets.
        if format == "ansi" { #expect(!result.stdoutText.contains("\u{1B}]52")) }
    }

    @Test func errorsOnStderrAreSanitised() throws {
        let input = Data("{\"type\":\"part-delta\",\"index\":0,\"delta\":\"x\"}\n{\u{1B}[2J\u{07} not json\n".utf8)
        let result = try Run.command("ps-render", [], stdin: input, timeout: 30)
        #expect(result.status == 3)
        #expect(!result.stderr.contains(Self.escape))
        #expect(!result.stderr.contains(0x07))
    }

    @Test func deeplyNestedJSONIsACleanError() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n"
        for command in ["ps-render", "ps-parts"] {
            let result = try Run.command(command, [], stdin: Data(deep.utf8), timeout: 30)
            #expect(result.status == 3, "\(command): \(result.status)")
            #expect(result.stderrText.split(separator: "\n").count == 1, "\(command): \(result.stderrText.prefix(300))")
        }
    }

    @Test func aLongMessageIsRenderedLikeTheSameTextInPieces() throws {
        // Long finished texts are parsed in pieces; the output must be the one of the whole text.
        var paragraphs: [String] = []
        for index in 0..<4000 {
            switch index % 7 {
            case 0: paragraphs.append("# Heading \(index)")
            case 1: paragraphs.append("- item \(index)\n- item\n\n  continued item \(index)")
            case 2: paragraphs.append("```\ncode \(index)\n\nstill code\n```")
            case 3: paragraphs.append("> quote \(index)\n\nafter the quote")
            case 4: paragraphs.append("| a | b |\n|---|---|\n| \(index) | x |")
            default: paragraphs.append("Paragraph \(index) with *emphasis* and `code` and a [link](http://e.com/\(index)).")
            }
        }
        let long = paragraphs.joined(separator: "\n\n") + "\n"
        // With a link reference definition the text is never cut: the reference output.
        let reference = try Run.command("ps-render", ["--format", "plain"], stdin: try Self.text(long + "\n[unused]: http://x\n"), timeout: 120)
        let cut = try Run.command("ps-render", ["--format", "plain"], stdin: try Self.text(long), timeout: 120)
        #expect(cut.status == 0)
        #expect(cut.stdout == reference.stdout)
    }
}
