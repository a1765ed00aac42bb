import Foundation
import Testing
@testable import PSNet

/// The state file of incremental exports: how often it is written, and which dates it takes.
@Suite struct ExportStateTests {
    static func scratch() throws -> String {
        let folder = NSTemporaryDirectory() + "ps-state-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder + "/state.json"
    }

    /// A first export of 100,000 messages is 500 pages; each used to cost an fsync and a
    /// rename. Now the file is written at most once a second while pages go out, and once at
    /// the end: a thousand pages noted in a moment make one write.
    @Test func aThousandPagesMakeOneWrite() throws {
        let path = try Self.scratch()
        var state = try ExportState.load(path, lockWait: 0)
        for page in 1...1000 {
            let id = "m\(page)"
            try state.record(
                HistoryWatermark(lastMessageID: id, lastCreatedAt: "2026-01-01T00:00:00.\(page)Z", idsAtLastCreatedAt: [id],
                                 anchorMessageID: nil),
                for: "global:c")
        }
        #expect(state.saves <= 1)
        try state.save()
        try state.save()  // nothing new: no write
        #expect(state.saves <= 2)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"m1000\""), "the file holds the last page written")
    }

    /// An export of 100,000 messages in 500 pages of 200 that takes 15.6 seconds (a page every
    /// 1/32 s on the clock given to the state) saves the file once a second and once at the end:
    /// 16 writes (each an fsync and a rename), not 500; the file holds the last page.
    @Test func aLongExportSavesOnceASecond() throws {
        final class Clock { var now = 0.0 }
        let clock = Clock()
        let path = try Self.scratch()
        var state = try ExportState.load(path, lockWait: 0)
        state.clock = { clock.now }
        for page in 1...500 {
            clock.now += 1.0 / 32
            let id = "m\(page * 200)"
            try state.record(HistoryWatermark(lastMessageID: id, lastCreatedAt: nil, idsAtLastCreatedAt: [id], anchorMessageID: nil),
                             for: "global:c")
        }
        try state.save()
        #expect(state.saves == 16)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"m100000\""))
    }

    /// The lock is the process's while its state is alive: a second load in the same process
    /// (another open file description) cannot take it.
    @Test func aSecondHolderWaitsThenGivesUp() throws {
        let path = try Self.scratch()
        let first = try ExportState.load(path, lockWait: 0)
        var told: [String] = []
        #expect(throws: (any Error).self) { try ExportState.load(path, lockWait: 0.1, onWait: { told.append($0) }) }
        #expect(told.count == 1)
        #expect(told.first?.contains("--lock-wait") == true)
        _ = first
    }

    @Test(arguments: [
        "2026-03-01T12:00:00.123Z", "2026-03-01T12:00:00Z", "2026-03-01T12:00:00+02:00", "2026-03-01 12:00:00",
        "2026-03-01T12:00Z", "2026-03-01", "2026-03-01T12:00:00.123456+0530",
    ]) func datesServersWriteAreTaken(date: String) {
        #expect(StateFileCheck.isTimestamp(date))
    }

    @Test(arguments: ["yesterday", "", "2026-3-1", "2026-03-01T", "2026-03-01T12", "2026-03-01T12:00:00.Z",
                      "2026-03-01T12:00:00Zjunk", "1772366400", "２０２６-03-01"])
    func otherTextIsNot(date: String) {
        #expect(!StateFileCheck.isTimestamp(date))
    }
}
