/// The best K rows of a search as ps_rank finds them, ordered as bm25() orders them: by rank,
/// then by rowid.
///
/// For a query of one phrase with no filter, ps_rank ranks with an IDF of 1 (`scaled`): bm25's
/// rank is then that rank times the phrase's IDF, which needs the number of rows the phrase is in.
/// FTS5 counts them with a second pass over the phrase's doclist (`xQueryPhrase`: for a common
/// phrase, as long as the search itself); here they are counted as they
/// are ranked, and the IDF is applied at the end (`ranked`). Multiplying by a positive number
/// keeps the order, but rounding can make two different ranks equal, after which bm25 orders
/// them by rowid; so the rows left out are followed by the two smallest ranks they had
/// (`dropped`, a lower bound for those whose length was not read), and when either of them could,
/// after the IDF, tie with the K-th row, `ranked` gives nil and the search is done the other way.
struct RankCandidates {
    struct Row {
        var rank: Double
        var rowid: Int64
        static func < (a: Row, b: Row) -> Bool { a.rank < b.rank || (a.rank == b.rank && a.rowid < b.rowid) }
    }

    let keep: Int
    /// Whether the ranks lack the IDF (a single phrase with no filter).
    var scaled = false
    /// The phrase's rows, counted (when `scaled`).
    var matched = 0
    /// The rows in the index (when `scaled`).
    var indexRows: Int64 = 0
    /// The best `keep`, best first.
    private(set) var rows: [Row] = []
    /// The two smallest different ranks of the rows left out (+infinity: none).
    private(set) var dropped = (Double.infinity, Double.infinity)

    init(keep: Int) { self.keep = keep }

    /// A row with its rank: kept if among the best `keep`.
    mutating func offer(_ row: Row) {
        guard keep > 0 else { return }
        if rows.count == keep {
            guard row < rows[keep - 1] else { return drop(row.rank) }
            drop(rows.removeLast().rank)
        }
        var low = 0, high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle] < row { low = middle + 1 } else { high = middle }
        }
        rows.insert(row, at: low)
    }

    /// A row left out, with its rank or a lower bound of it.
    mutating func drop(_ rank: Double) {
        if rank < dropped.0 {
            dropped = (rank, dropped.0)
        } else if rank > dropped.0 && rank < dropped.1 {
            dropped.1 = rank
        }
    }

    /// The best `limit` rows (`limit` <= `keep`) with bm25's ranks, best first; nil when rounding
    /// could have put a row left out among them.
    func ranked(limit: Int) -> [Row]? {
        guard scaled else { return Array(rows.prefix(limit)) }
        let idf = RankFunction.idf(rows: indexRows, hits: Int64(matched))
        let final = rows.map { Row(rank: RankFunction.applying(idf: idf, to: $0.rank), rowid: $0.rowid) }
        // Different ranks stay different after the IDF: the order is the same.
        for index in final.indices.dropFirst() where rows[index].rank != rows[index - 1].rank {
            if final[index].rank == final[index - 1].rank { return nil }
        }
        let shown = Array(final.prefix(limit))
        guard rows.count == keep, let last = shown.last else { return shown }
        // A row left out is after the last shown by its rank, or by its rowid when its rank is
        // the same (it was left out for that); after the IDF too.
        let lastRank = rows[shown.count - 1].rank
        for rank in [dropped.0, dropped.1] where rank != lastRank && rank.isFinite {
            if RankFunction.applying(idf: idf, to: rank) <= last.rank { return nil }
        }
        return shown
    }
}
