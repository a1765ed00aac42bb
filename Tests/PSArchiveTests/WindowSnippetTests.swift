import Foundation
@testable import PSArchive
import PSCore
import Testing

/// WindowSnippet: the snippet of a long message (a record over 16 KB) is the words around its
/// first match, each match marked, read from an archive as a search shows it.
@Suite final class WindowSnippetTests {
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ps-window-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    private func marked(_ word: String) -> String { "\u{2}\(word)\u{3}" }

    /// The snippet of a message whose text parts are `texts` (each part's words given), made long
    /// by a field that is not searched.
    private func snippet(_ texts: [String], _ query: String) throws -> String? {
        let archive = try SQLiteArchive(path: folder.appendingPathComponent("\(UUID().uuidString).sqlite").path, create: true)
        let parts = texts.map { #"{"type":"text","text":"\#($0)"}"# }.joined(separator: ",")
        let pad = String(repeating: "x", count: WindowSnippet.longRecord)
        var line = #"{"id":"m","role":"user","pad":"\#(pad)","parts":[\#(parts)]}"#
        guard case .message(let message) = try line.withUTF8({ try ArchiveRecord.read(UnsafeRawBufferPointer($0), source: "s") })
        else { return nil }
        try archive.begin()
        try archive.store(message)
        try archive.commit()
        var found: [String] = []
        try archive.search(ArchiveQuery(text: query)) { found.append($0.snippet) }
        return found.first
    }

    @Test func theWindowStartsFourWordsBeforeTheFirstMatchAndHoldsSixteenWords() throws {
        var words = (1...40).map { "w\($0)" }
        words[20] = "hit"
        words[30] = "hit"
        var shown = words
        shown[20] = marked("hit")
        shown[30] = marked("hit")
        #expect(try snippet([words.joined(separator: " ")], "hit") == "…" + shown[16..<32].joined(separator: " ") + "…")
    }

    @Test func aMatchNearTheStartHasNoLeadingEllipsisAndAShortTextNoTrailingOne() throws {
        #expect(try snippet(["a b, c"], "b") == "a \(marked("b")), c")
        #expect(try snippet(["first then more"], "first") == "\(marked("first")) then more")
    }

    @Test func aPhraseIsMarkedOnceAndAMatchAtTheWindowsEndIsClosed() throws {
        let head = (1...14).map { "w\($0)" }
        #expect(try snippet([(head + ["long", "match", "w17"]).joined(separator: " ")], #""long match""#) == "…" + head[10...].joined(separator: " ") + " \u{2}long match\u{3} w17")
        #expect(try snippet([(["a"] + head + ["long", "match"]).joined(separator: " ")], #"a "long match""#) == marked("a") + " " + head.joined(separator: " ") + " \u{2}long\u{3}…")
    }

    @Test func theTextPartsAreOneText() throws {
        #expect(try snippet(["alpha beta", "gamma delta"], "delta") == "alpha beta\ngamma \(marked("delta"))")
    }
}
