import PSArchive
import PSArchivePostgres
import PSCore
import Testing

/// The pieces of the PostgreSQL store that need no server: its URL (whose password no message
/// shows) and the text it indexes for a message.
@Suite final class PostgresStoreUnitTests {
    @Test func aURLIsReadAsLibpqReadsIt() throws {
        let url = try PostgresURL("postgresql://team:s%40cret@db.example.com:6543/archive?sslmode=require")
        #expect(url.user == "team")
        #expect(url.password == "s@cret")
        #expect(url.host == "db.example.com")
        #expect(url.port == 6543)
        #expect(url.database == "archive")
        #expect(url.requireTLS)
        #expect(url.description == "postgresql://team@db.example.com:6543/archive")

        let socket = try PostgresURL("postgres://me@/notes?host=/run/postgresql")
        #expect(socket.host == "/run/postgresql")
        #expect(socket.port == 5432)
        #expect(socket.password == nil)
        #expect(socket.description == "postgresql://me@/notes?host=/run/postgresql")

        #expect(throws: (any Error).self) { try PostgresURL("postgresql://a@h:99999/x") }
        #expect(throws: (any Error).self) { try PostgresURL("postgresql://a@h/x?options=-c%20x") }
        #expect(ArchiveStores.isPostgres("postgres://x"))
        #expect(!ArchiveStores.isPostgres("/tmp/archive.sqlite"))
    }

    private func text(_ record: String) throws -> MessageText {
        MessageText(try #require(try JSON.parse(record).objectValue))
    }

    @Test func aMessagesTextIsItsPartsInFourColumns() throws {
        let text = try text(#"""
            {"id":"m","role":"assistant","parts":[{"type":"reasoning","text":"think"},{"type":"text","text":"one"},
             {"type":"tool-weather","input":{"city":"Oslo"},"output":"cold"},{"type":"text","text":"two"},
             {"type":"dynamic-tool","toolName":"search","input":"q"}]}
            """#)
        #expect(text.text == "one\ntwo")
        #expect(text.reasoning == "think")
        #expect(text.tool == "weather search")
        #expect(text.toolIO == "{\"city\":\"Oslo\"}\ncold\nq\n")
        #expect(!text.matchesView, "tool parts are left to SQLite's view")
        let plain = try self.text(#"{"id":"m","role":"user","content":"plain"}"#)
        #expect(plain.text == "plain")
        #expect(plain.matchesView)
        let none = try self.text(#"{"parts":[{"type":"text","text":null},{"type":"step-start"}]}"#)
        #expect([none.text, none.reasoning, none.tool, none.toolIO] == [nil, nil, nil, nil])
        #expect(none.matchesView)
    }
}
