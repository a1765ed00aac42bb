#if canImport(Glibc)
import Glibc
#endif
import CSQLite

/// `ps_rank(message_fts, K)`: FTS5's bm25() for a search that keeps the best K rows, ordered
/// by it. Every row that can be among the best K gets exactly bm25()'s value (the same
/// arithmetic, in the same order); a row that cannot gets +infinity, after them all.
///
/// Why: bm25() needs each matching row's length in tokens, which FTS5 reads with one SQL
/// statement per row from `message_fts_docsize`, and that is most of the time a common word
/// takes. The score grows with the
/// frequency of the query's phrases in the row and falls with the row's length, so a row's best
/// possible score follows from its frequencies and a lower bound of its length: each matched
/// column is longer than the offset of its last match. When that bound is worse than the K-th
/// best score found so far, the row's length is never read (for a common word, about 9 rows
/// of 10). The result, the same rows in the same order with the same ranks, is checked against
/// bm25() in the tests.
///
/// Its second argument says how: 0, rank this row; `everyRow`, rank every row of the query at
/// once.
enum RankFunction {
    static let name = "ps_rank"

    /// The copy of the lengths (RowLengths) and the state of a search's ranking.
    final class Counts {
        /// The rows and tokens of message_fts, when the table ranked is another (the pairs of
        /// common words: CommonGrams), whose own figures are not bm25's: then each row's length
        /// must come from the copy (`copy`), and the call fails when it cannot.
        var indexFigures: (rows: Int64, tokens: Int64)?
        let copy: RowLengths?
        /// The search's best rows (set before each).
        var candidates = RankCandidates(keep: 0)
        /// The number of rows each phrase of the query is in, from the copy of the terms' counts
        /// (TermCounts; set before each search, asked only by a query whose IDF needs them),
        /// else nil: each is counted with a pass of its own.
        var phraseRows: () -> [Int64]? = { nil }

        init(copy: RowLengths? = nil) { self.copy = copy }
    }

    /// Registers the function on the connection (FTS5's `fts5_api`, read with `SELECT fts5(?)`),
    /// counting in `counts`, which must live as long as the connection.
    static func register(on database: SQLiteDatabase, counting counts: Counts) throws {
        guard let api = try database.fts5API(),
              api.pointee.xCreateFunction!(api, name, Unmanaged.passUnretained(counts).toOpaque(), rank, nil) == SQLITE_OK
        else { throw database.failure("cannot add the full-text rank function") }
    }

    /// What one query computes once: as bm25() does (fts5_aux.c), the IDF of each phrase and
    /// the average row length; and the best K scores so far.
    private final class Query {
        let idf: [Double]
        let averageLength: Double
        let keep: Int
        /// Whether the rows are counted, for an IDF applied at the end (RankCandidates).
        let counting: Bool
        var best = MaxHeap()
        var lastRow: Int64?
        var lastCounted: Int64?
        // The current row's, rewritten for each.
        let frequencies: UnsafeMutableBufferPointer<Double>
        let lastOffsets: UnsafeMutableBufferPointer<Int32>

        init(idf: [Double], averageLength: Double, keep: Int, counting: Bool, columns: Int) {
            self.idf = idf
            self.averageLength = averageLength
            self.keep = keep
            self.counting = counting
            frequencies = .allocate(capacity: idf.count)
            lastOffsets = .allocate(capacity: max(columns, 0))
        }

        deinit {
            frequencies.deallocate()
            lastOffsets.deallocate()
        }

        /// bm25's score (positive, higher is better) for the row's frequencies and a length.
        func score(length: Double) -> Double {
            let k1 = 1.2, b = 0.75
            var score = 0.0
            for i in 0..<frequencies.count {
                let frequency = frequencies[i]
                score += idf[i] * ((frequency * (k1 + 1.0)) / (frequency + k1 * (1 - b + b * length / averageLength)))
            }
            return score
        }
    }

    /// The second argument's value that asks for every row at once: called for the first row of
    /// a search with no filter (`... WHERE message_fts MATCH ?1 LIMIT 1`), ps_rank gives 1 when
    /// the query is a single phrase, having ranked each of its rows into `Counts.candidates` with
    /// the IDF left to the end (RankCandidates), and 0 for any other query, which is then ranked
    /// row by row. Those rows come from FTS5's own pass over the phrase (xQueryPhrase: in rowid
    /// order, with the phrase's column filter), so that none goes through SQL (a row of the
    /// statement, the sorter of ORDER BY).
    static let everyRow: Int64 = 1

    private static let rank: fts5_extension_function = { api, context, result, count, values in
        guard let api = api?.pointee, let context else { return }
        let keep = count > 0 ? Int(sqlite3_value_int64(values![0])) : 0
        let counts = Unmanaged<Counts>.fromOpaque(api.xUserData!(context)!).takeUnretainedValue()
        let status: Int32
        if count > 1 && sqlite3_value_int64(values![1]) == everyRow {
            status = rankEveryRow(api, context, keep: keep, counts: counts) { sqlite3_result_int64(result, $0 ? 1 : 0) }
        } else {
            status = rankRow(api, context, keep: keep, counts: counts) { rank in sqlite3_result_double(result, rank) }
        }
        if status != SQLITE_OK { sqlite3_result_error_code(result, status) }
    }

    /// What the callback of xQueryPhrase is given for each row (its user data).
    private final class EveryRow {
        let counts: Counts
        let query: Query
        init(counts: Counts, query: Query) { (self.counts, self.query) = (counts, query) }
    }

    private static func rankEveryRow(_ api: Fts5ExtensionApi, _ context: OpaquePointer, keep: Int, counts: Counts,
                                     _ answer: (Bool) -> Void) -> Int32 {
        guard api.xPhraseCount!(context) == 1 else {
            answer(false)
            return SQLITE_OK
        }
        let every: EveryRow
        do {
            every = EveryRow(counts: counts, query: try makeQuery(api, context, keep: keep, everyRow: true, counts: counts))
        } catch {
            return (error as? Failed)?.status ?? SQLITE_ERROR
        }
        let status = withExtendedLifetime(every) {
            api.xQueryPhrase!(context, 0, Unmanaged.passUnretained(every).toOpaque()) { api, context, user in
                guard let api = api?.pointee, let context, let user else { return SQLITE_ERROR }
                let every = Unmanaged<EveryRow>.fromOpaque(user).takeUnretainedValue()
                return RankFunction.rankRow(api, context, query: every.query, counts: every.counts) { _ in }
            }
        }
        guard status == SQLITE_OK else { return status }
        answer(true)
        return SQLITE_OK
    }

    private static func rankRow(_ api: Fts5ExtensionApi, _ context: OpaquePointer, keep: Int, counts: Counts,
                                _ answer: (Double) -> Void) -> Int32 {
        let query: Query
        if let auxiliary = api.xGetAuxdata!(context, 0) {
            query = Unmanaged<Query>.fromOpaque(auxiliary).takeUnretainedValue()
        } else {
            do {
                query = try makeQuery(api, context, keep: keep, everyRow: false, counts: counts)
            } catch {
                return (error as? Failed)?.status ?? SQLITE_ERROR
            }
            let status = api.xSetAuxdata!(context, Unmanaged.passRetained(query).toOpaque()) {
                Unmanaged<Query>.fromOpaque($0!).release()
            }
            guard status == SQLITE_OK else { return status }
        }
        return rankRow(api, context, query: query, counts: counts, answer)
    }

    /// Ranks the context's row with the query's figures.
    private static func rankRow(_ api: Fts5ExtensionApi, _ context: OpaquePointer, query: Query, counts: Counts,
                                _ answer: (Double) -> Void) -> Int32 {
        // The phrase frequencies, as bm25() counts them (each column weighs 1), and the offset
        // of the last match in each column.
        var instances: Int32 = 0
        var status = api.xInstCount!(context, &instances)
        guard status == SQLITE_OK else { return status }
        let frequencies = query.frequencies, lastOffsets = query.lastOffsets
        frequencies.update(repeating: 0)
        lastOffsets.update(repeating: -1)
        for index in 0..<instances {
            var phrase: Int32 = 0, column: Int32 = 0, offset: Int32 = 0
            status = api.xInst!(context, index, &phrase, &column, &offset)
            guard status == SQLITE_OK else { return status }
            frequencies[Int(phrase)] += 1.0
            if Int(column) < lastOffsets.count { lastOffsets[Int(column)] = max(lastOffsets[Int(column)], offset) }
        }
        let row = api.xRowid!(context)
        if query.counting && query.lastCounted != row {  // the rows come in rowid order
            query.lastCounted = row
            counts.candidates.matched += 1
        }
        let counted = query.lastRow == row  // the same row asked again: its score is in `best` already
        if query.keep > 0 && query.best.count == query.keep && !counted {
            let shortest = lastOffsets.reduce(0.0) { $0 + ($1 >= 0 ? Double($1) + 1 : 0) }
            let bound = -1.0 * query.score(length: shortest)
            if bound > query.best.maximum {
                counts.candidates.drop(bound)
                answer(.infinity)
                return SQLITE_OK
            }
        }
        var tokens: Int32 = 0
        if let copied = counts.copy?.length(of: row) {
            tokens = Int32(copied)
        } else if counts.indexFigures != nil {
            // Another table's rows (the pairs): their length in message_fts is not known here.
            return SQLITE_ABORT
        } else {
            status = api.xColumnSize!(context, -1, &tokens)
            guard status == SQLITE_OK else { return status }
        }
        let rank = -1.0 * query.score(length: Double(tokens))
        if query.keep > 0 && !counted {
            query.lastRow = row
            if query.best.count < query.keep {
                query.best.insert(rank)
            } else if rank < query.best.maximum {
                query.best.replaceMaximum(with: rank)
            }
            counts.candidates.offer(RankCandidates.Row(rank: rank, rowid: row))
        }
        answer(rank)
        return SQLITE_OK
    }

    private struct Failed: Error { let status: Int32 }

    /// For `everyRow` (a single phrase, every row of which is ranked: no filter), the IDF is left
    /// for RankCandidates to apply, from the rows counted here; else each phrase's rows come from
    /// the copy of the terms' counts when it has them (TermCounts), or are counted first, with a
    /// pass of their own (xQueryPhrase), as bm25() does.
    private static func makeQuery(_ api: Fts5ExtensionApi, _ context: OpaquePointer, keep: Int, everyRow: Bool,
                                  counts: Counts) throws -> Query {
        func check(_ status: Int32) throws { if status != SQLITE_OK { throw Failed(status: status) } }
        var rows: Int64 = 0, tokens: Int64 = 0
        if let figures = counts.indexFigures {
            (rows, tokens) = figures
        } else {
            try check(api.xRowCount!(context, &rows))
            try check(api.xColumnTotalSize!(context, -1, &tokens))
        }
        let phrases = api.xPhraseCount!(context)
        let counting = everyRow && phrases == 1
        var idf: [Double] = []
        let known = counting ? nil : counts.phraseRows().flatMap { $0.count == Int(phrases) ? $0 : nil }
        for phrase in 0..<phrases {
            if counting {
                idf.append(1.0)
                continue
            }
            var hits: Int64 = 0
            if let known {
                hits = known[Int(phrase)]
            } else {
                try check(api.xQueryPhrase!(context, phrase, &hits) { _, _, counter in
                    counter!.assumingMemoryBound(to: Int64.self).pointee += 1
                    return SQLITE_OK
                })
            }
            idf.append(Self.idf(rows: rows, hits: hits))
        }
        counts.candidates.scaled = counting
        counts.candidates.indexRows = rows
        return Query(idf: idf, averageLength: Double(tokens) / Double(rows), keep: keep, counting: counting,
                     columns: Int(api.xColumnCount!(context)))
    }

    /// bm25's IDF of a phrase in `hits` of `rows` rows.
    static func idf(rows: Int64, hits: Int64) -> Double {
        let value = log((Double(rows - hits) + 0.5) / (Double(hits) + 0.5))
        return value <= 0.0 ? 1e-6 : value
    }

    /// bm25's rank for a single phrase from its rank with an IDF of 1, the same arithmetic as
    /// `Query.score` (0 plus the IDF times the row's part) and its negation.
    static func applying(idf: Double, to unscaled: Double) -> Double {
        var score = 0.0
        score += idf * (-unscaled)
        return -1.0 * score
    }
}

/// The largest of some numbers, kept in a binary heap.
struct MaxHeap {
    private var items: [Double] = []
    var count: Int { items.count }
    var maximum: Double { items.first ?? -.infinity }

    mutating func insert(_ value: Double) {
        items.append(value)
        var child = items.count - 1
        while child > 0, items[(child - 1) / 2] < items[child] {
            items.swapAt(child, (child - 1) / 2)
            child = (child - 1) / 2
        }
    }

    mutating func replaceMaximum(with value: Double) {
        items[0] = value
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var largest = parent
            if left < items.count, items[left] > items[largest] { largest = left }
            if right < items.count, items[right] > items[largest] { largest = right }
            if largest == parent { return }
            items.swapAt(parent, largest)
            parent = largest
        }
    }
}
