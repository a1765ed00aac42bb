import Foundation
import PSArchive
import XCTest

final class ArchiveStoreTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ps-archive-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func record(_ line: String, source: String = "s") throws -> ArchiveRecord {
        var line = line
        return try line.withUTF8 { try ArchiveRecord.read(UnsafeRawBufferPointer($0), source: source) }
    }

    private func store(_ archive: SQLiteArchive, _ lines: [String], source: String = "s") throws {
        try archive.begin()
        for line in lines {
            switch try record(line, source: source) {
            case .message(let message): try archive.store(message)
            case .deletion(let source, let id): try archive.delete(source: source, id: id, keep: false)
            case .conversation(let source, let id, let title, let text):
                try archive.storeConversation(source: source, id: id, title: title, record: text)
            }
        }
        try archive.commit()
    }

    private func hits(_ archive: SQLiteArchive, _ query: ArchiveQuery) throws -> [ArchiveHit] {
        var result: [ArchiveHit] = []
        try archive.search(query) { result.append($0) }
        return result
    }

    func testRecordKinds() throws {
        guard case .message(let message) = try record(#"{"id":"m1","role":"user","conversationId":"c1","parts":[],"updated":true}"#)
        else { return XCTFail("not a message") }
        XCTAssertEqual(message.conversationId, "c1")
        XCTAssertFalse(message.record.contains("updated"), "an update's mark is not stored")
        guard case .deletion(let source, "m1") = try record(#"{"id":"m1","deleted":true,"origin":"work"}"#) else {
            return XCTFail("not a deletion")
        }
        XCTAssertEqual(source, "work", "origin names the source")
        guard case .conversation(_, "c1", "Plans", _) = try record(#"{"id":"c1","title":"Plans"}"#) else {
            return XCTFail("not a conversation")
        }
        XCTAssertThrowsError(try record(#"{"id":"x"}"#))
        XCTAssertThrowsError(try record(#"[1]"#))
        XCTAssertThrowsError(try record(#"{"id":"m1","role":3}"#))
    }

    func testTextReasoningAndToolColumnsAreSearchedAndNamed() throws {
        let archive = try SQLiteArchive(path: folder.appendingPathComponent("a/b.sqlite").path, create: true)
        try store(archive, [
            #"{"id":"m1","role":"assistant","parts":[{"type":"reasoning","text":"pondering zebras"},{"type":"text","text":"Hello world"}]}"#,
            #"{"id":"m2","role":"assistant","parts":[{"type":"tool-weather","input":{"city":"Oslo"},"output":{"temp":3}}]}"#,
            #"{"id":"m3","role":"user","content":"an old zebra message"}"#,
        ])
        XCTAssertEqual(try hits(archive, ArchiveQuery(text: "zebras")).map(\.message).count, 1)
        XCTAssertEqual(try hits(archive, ArchiveQuery(text: "tool:weather")).count, 1)
        XCTAssertEqual(try hits(archive, ArchiveQuery(text: "tool_io:oslo")).count, 1)
        XCTAssertEqual(try hits(archive, ArchiveQuery(text: "text:oslo")).count, 0, "the columns are separate")
        XCTAssertEqual(try hits(archive, ArchiveQuery(text: "zebra")).count, 1, "content of an older record is text")
        XCTAssertEqual(try hits(archive, ArchiveQuery(text: "zebra*")).count, 2, "prefix queries")
        let hit = try XCTUnwrap(try hits(archive, ArchiveQuery(text: "\"hello world\"")).first)
        XCTAssertEqual(hit.snippet, "\u{2}Hello world\u{3}")
    }

    func testUpdateReplacesTheIndexedTextAndDeletionRemovesIt() throws {
        let archive = try SQLiteArchive(path: folder.appendingPathComponent("x.sqlite").path, create: true)
        try store(archive, [#"{"id":"m1","role":"user","parts":[{"type":"text","text":"first apple"}]}"#])
        try store(archive, [#"{"id":"m1","role":"user","parts":[{"type":"text","text":"second banana"}],"updated":true}"#])
        XCTAssertEqual(try hits(archive, ArchiveQuery(text: "apple")).count, 0)
        XCTAssertEqual(try hits(archive, ArchiveQuery(text: "banana")).count, 1)
        try store(archive, [#"{"id":"m1","deleted":true,"conversationId":"c"}"#])
        XCTAssertEqual(try hits(archive, ArchiveQuery(text: "banana")).count, 0)
        XCTAssertEqual(try archive.statistics().first?.messages ?? 0, 0)
        try archive.verify()
    }

    func testAMalformedQueryIsAUsageError() throws {
        let archive = try SQLiteArchive(path: folder.appendingPathComponent("q.sqlite").path, create: true)
        XCTAssertThrowsError(try hits(archive, ArchiveQuery(text: "\"unclosed")))
    }
}
