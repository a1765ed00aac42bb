import Foundation
@testable import PSArchive
import Testing

/// RankCandidates: the best K rows by rank then rowid, and a single phrase's IDF applied at the
/// end only where the order stays bm25's.
@Suite final class RankCandidatesTests {
    private func candidates(keep: Int, rows: Int64 = 0, matched: Int = 0, _ offers: [(Double, Int64)]) -> RankCandidates {
        var candidates = RankCandidates(keep: keep)
        candidates.scaled = rows > 0
        candidates.indexRows = rows
        candidates.matched = matched
        for (rank, rowid) in offers { candidates.offer(.init(rank: rank, rowid: rowid)) }
        return candidates
    }

    /// Two ranks one apart in the last place (x and the next double) that some IDF makes equal.
    private func collidingIDF() throws -> (rows: Int64, matched: Int, x: Double) {
        let x = 1.9  // near the top of its binade: x.nextUp is relatively closer than products of about 4 to 8 are
        for matched in 1...5000 {
            let idf = RankFunction.idf(rows: 100_000, hits: Int64(matched))
            if RankFunction.applying(idf: idf, to: -x) == RankFunction.applying(idf: idf, to: -x.nextUp) {
                return (100_000, matched, x)
            }
        }
        struct NotFound: Error {}
        throw NotFound()
    }

    @Test func theBestAreKeptByRankThenRowid() {
        let found = candidates(keep: 3, [(-1, 9), (-3, 4), (-1, 2), (-2, 7), (-1, 1), (-5, 8)])
        #expect(found.rows.map(\.rowid) == [8, 4, 7])
        #expect(found.dropped.0 == -1, "the smallest rank left out")
        #expect(found.ranked(limit: 2)?.map(\.rowid) == [8, 4])
        let ties = candidates(keep: 2, [(-1, 5), (-1, 3), (-1, 4)])
        #expect(ties.rows.map(\.rowid) == [3, 4], "equal ranks: the smaller rowids")
    }

    @Test func theIDFIsAppliedAsBM25DoesIt() throws {
        let found = candidates(keep: 2, rows: 1000, matched: 10, [(-2, 1), (-1, 2), (-0.5, 3)])
        let idf = RankFunction.idf(rows: 1000, hits: 10)
        #expect(idf == log((1000.0 - 10 + 0.5) / (10 + 0.5)))
        let ranked = try #require(found.ranked(limit: 2))
        #expect(ranked.map(\.rowid) == [1, 2])
        #expect(ranked.map(\.rank) == [-1.0 * (0.0 + idf * 2), -1.0 * (0.0 + idf * 1)])
    }

    /// When the IDF makes two different ranks equal (bm25 would then order them by rowid), among
    /// those shown or between the last shown and one left out, the order is in doubt: nil.
    @Test func roundingThatCouldChangeTheOrderGivesNil() throws {
        let (rows, matched, x) = try collidingIDF()
        // Kept: the better rank (larger x) has the larger rowid; bm25 would put rowid 1 first.
        let kept = candidates(keep: 2, rows: rows, matched: matched, [(-x.nextUp, 2), (-x, 1)])
        #expect(kept.ranked(limit: 2) == nil)
        // Left out: rowid 1, rank -x, after the IDF equal to the last shown (rowid 2).
        let left = candidates(keep: 1, rows: rows, matched: matched, [(-x.nextUp, 2), (-x, 1)])
        #expect(left.ranked(limit: 1) == nil)
        // The same ranks with no IDF to apply (bm25's own ranks) are in order.
        #expect(candidates(keep: 1, [(-x.nextUp, 2), (-x, 1)]).ranked(limit: 1)?.map(\.rowid) == [2])
        // A rank left out far from the last shown is no doubt.
        #expect(candidates(keep: 1, rows: rows, matched: matched, [(-x.nextUp, 2), (-x / 2, 1)]).ranked(limit: 1)?.map(\.rowid) == [2])
    }
}
