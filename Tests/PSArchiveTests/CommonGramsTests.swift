import Foundation
@testable import PSArchive
import Testing

/// A phrase of two common words is found from its pairs (CommonGrams) while they are current,
/// with bm25()'s ranks; every write of ps-archive keeps them in step (FTS5's integrity check of
/// them passes), and a write of another program makes the next ingest make them again.
extension ArchiveStoreTests {
    static let pairQueries = ["\"the the\"", "\"of it\"", "\"The  OF\"", "\"it is\""]
    static let otherQueries = ["the", "\"the cat\"", "\"the the the\"", "text:\"the the\"", "\"the\"", "the the", "\"zebra the\""]

    /// 1,500 messages of common words and a few others, in three batches, ingested.
    private func wordyArchive(_ name: String) throws -> SQLiteArchive {
        let archive = try SQLiteArchive(path: folder.appendingPathComponent(name).path, create: true)
        var generator = SeededGenerator()
        let words = ["the", "of", "it", "is", "and", "but", "cat", "dog", "zebra", "The", "OF"]
        let lines = (0..<1500).map { n in
            let text = (0..<Int.random(in: 2...30, using: &generator)).map { _ in
                words[min(Int(Double(words.count) * pow(Double.random(in: 0..<1, using: &generator), 2.0)), words.count - 1)]
            }.joined(separator: " ")
            let reasoning = n % 5 == 0 ? #",{"type":"reasoning","text":"of it the the \#(n)"}"# : ""
            return #"{"id":"m\#(n)","role":"\#(n % 3 == 0 ? "user" : "assistant")","createdAt":"2026-01-\#(10 + n % 20)","#
                + #""parts":[{"type":"text","text":"\#(text)"}\#(reasoning)]}"#
        }
        for batch in stride(from: 0, to: lines.count, by: 500) { try store(archive, Array(lines[batch..<batch + 500])) }
        try archive.finishIngest()
        return archive
    }

    @Test func aPhraseOfTwoCommonWordsIsFoundFromItsPairs() throws {
        let archive = try wordyArchive("pairs.sqlite")
        try archive.verify()
        try assertRanksAreBM25s(archive, "pairs", queries: Self.pairQueries + Self.otherQueries)
        #expect(try hits(archive, ArchiveQuery(text: "\"yourselves ourselves\"", limit: 5)).count == 0, "a pair in no row")
    }

    @Test func thePairsFollowUpdatesAndDeletions() throws {
        let archive = try wordyArchive("follow.sqlite")
        try store(archive, [
            #"{"id":"m1","role":"user","parts":[{"type":"text","text":"the the the of it"}],"updated":true}"#,
            #"{"id":"m2","deleted":true}"#,
            #"{"id":"new","role":"user","parts":[{"type":"text","text":"it is the the"}]}"#,
            #"{"id":"m3","role":"user","parts":[{"type":"tool-read","toolCallId":"t","state":"output-available","input":{"q":"of it"},"output":"the the"}]}"#,
        ])
        try archive.verify()
        try archive.finishIngest()
        try archive.verify()
        try assertRanksAreBM25s(archive, "after updates", queries: Self.pairQueries)
        // The same records again change nothing; a message deleted and kept changes no index.
        try store(archive, [#"{"id":"new","role":"user","parts":[{"type":"text","text":"it is the the"}]}"#])
        try archive.begin()
        try archive.delete(source: "s", id: "m4", keep: true)
        try archive.commit()
        try archive.finishIngest()
        try archive.verify()
        try assertRanksAreBM25s(archive, "after the same records again", queries: Self.pairQueries)
    }

    @Test func anotherProgramsWriteMakesThePairsAgain() throws {
        let archive = try wordyArchive("other.sqlite")
        // A plain sqlite3, which has no tokenizer for the pairs, deletes a message and changes one.
        let other = try SQLiteDatabase(path: folder.appendingPathComponent("other.sqlite").path)
        try other.execute("""
            DELETE FROM messages WHERE id = 'm7';
            UPDATE messages SET record = json_set(record, '$.parts[0].text', 'the the of it') WHERE id = 'm8'
            """)
        try assertRanksAreBM25s(archive, "after another program's write", queries: Self.pairQueries)
        // The next ingest leaves them alone, and makes them again when it ends.
        try store(archive, [#"{"id":"late","role":"user","parts":[{"type":"text","text":"of it the"}]}"#])
        try archive.finishIngest()
        try archive.verify()
        try assertRanksAreBM25s(archive, "made again", queries: Self.pairQueries)
    }

    @Test func anArchiveMadeBeforeThePairsGetsThem() throws {
        let path = folder.appendingPathComponent("before.sqlite").path
        _ = try wordyArchive("before.sqlite")
        // (Dropping the table needs its tokenizer, as any use of it does.)
        let old = try SQLiteDatabase(path: path)
        try CommonGrams.register(on: old)
        try old.execute("DROP TABLE message_grams; DROP TABLE message_grams_stamp")
        let reading = try SQLiteArchive(path: path, create: false)
        try assertRanksAreBM25s(reading, "no pairs", queries: Self.pairQueries)
        let archive = try SQLiteArchive(path: path, create: true)
        try store(archive, [#"{"id":"late","role":"user","parts":[{"type":"text","text":"of it the"}]}"#])
        try archive.finishIngest()
        try archive.verify()
        try assertRanksAreBM25s(archive, "made at the first ingest", queries: Self.pairQueries)
    }

    @Test func commonWords() {
        func common(_ word: String) -> Bool {
            word.utf8CString.withUnsafeBufferPointer { CommonGrams.isCommon($0.baseAddress!, word.utf8.count) }
        }
        for word in ["the", "a", "of", "yourselves", "i", "t"] { #expect(common(word), Comment(rawValue: word)) }
        for word in ["", "The", "cat", "thee", "th", "yourselvesx", "ourselve"] { #expect(!common(word), Comment(rawValue: word)) }
        #expect(CommonGrams.words.count == 127)
        #expect(CommonGrams.phraseInside(" \"of the\" ") == "of the")
        #expect(CommonGrams.phraseInside("\"of\" \"the\"") == nil)
        #expect(CommonGrams.phraseInside("of the") == nil)
    }
}

/// The common words are PostgreSQL's English stop words (scripts/common-words.py wrote them).
@Suite struct CommonWordsSourceTests {
    /// PostgreSQL's list, where it is installed.
    static let stopList: String? = {
        let folder = "/usr/share/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return versions.sorted().map { "\(folder)/\($0)/tsearch_data/english.stop" }
            .last { FileManager.default.fileExists(atPath: $0) }
    }()

    @Test(.enabled(if: stopList != nil, "no PostgreSQL stop-word list on this machine"))
    func theWordsAreTheStopList() throws {
        let file = try #require(Self.stopList)
        let words = try String(contentsOfFile: file, encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
        #expect(CommonGrams.words == Set(words.filter { !$0.isEmpty }).sorted(), "run scripts/common-words.py")
    }
}

extension ArchiveStoreTests {
    /// An ASCII text's pairs are found without unicode61: the same as through it, whatever the
    /// punctuation, case, digits and control characters.
    @Test func asciiTextHasTheSamePairsWithoutUnicode61() throws {
        let database = try SQLiteDatabase(path: folder.appendingPathComponent("tokens.sqlite").path)
        var generator = SeededGenerator()
        let pieces = ["the", "The", "OF", "it", "is", "a", "yourselves", "themselves", "cat", "x", "9", "the9", "don't", "it's",
                      " ", "  ", ".", ",", "-", "_", "\t", "\n", "\u{1}", "\u{7F}", "(", ")", "\"", "'", "~", "the_of", "IT'S"]
        for _ in 0..<2000 {
            let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined(separator: Bool.random(using: &generator) ? " " : "")
            let fast = try CommonGrams.pairs(of: text, database: database, throughUnicode61: false)
            #expect(fast == (try CommonGrams.pairs(of: text, database: database, throughUnicode61: true)), Comment(rawValue: text.debugDescription))
        }
        #expect(try CommonGrams.pairs(of: "It is THE cat of the The, it.", database: database, throughUnicode61: false) == ["it is", "is the", "of the", "the the", "the it"])
    }
}
