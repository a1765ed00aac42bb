import PSArchive
import PSArchivePostgres
import PSCore
import XCTest

/// The pieces of the PostgreSQL store that need no server: its URL (whose password no message
/// shows) and the text it indexes for a message.
final class PostgresStoreUnitTests: XCTestCase {
    func testAURLIsReadAsLibpqReadsIt() throws {
        let url = try PostgresURL("postgresql://team:s%40cret@db.example.com:6543/archive?sslmode=require")
        XCTAssertEqual(url.user, "team")
        XCTAssertEqual(url.password, "s@cret")
        XCTAssertEqual(url.host, "db.example.com")
        XCTAssertEqual(url.port, 6543)
        XCTAssertEqual(url.database, "archive")
        XCTAssertTrue(url.requireTLS)
        XCTAssertEqual(url.description, "postgresql://team@db.example.com:6543/archive")

        let socket = try PostgresURL("postgres://me@/notes?host=/run/postgresql")
        XCTAssertEqual(socket.host, "/run/postgresql")
        XCTAssertEqual(socket.port, 5432)
        XCTAssertNil(socket.password)
        XCTAssertEqual(socket.description, "postgresql://me@/notes?host=/run/postgresql")

        XCTAssertThrowsError(try PostgresURL("postgresql://a@h:99999/x"))
        XCTAssertThrowsError(try PostgresURL("postgresql://a@h/x?options=-c%20x"))
        XCTAssertTrue(ArchiveStores.isPostgres("postgres://x"))
        XCTAssertFalse(ArchiveStores.isPostgres("/tmp/archive.sqlite"))
    }

    private func text(_ record: String) throws -> MessageText {
        MessageText(try XCTUnwrap(try JSON.parse(record).objectValue))
    }

    func testAMessagesTextIsItsPartsInFourColumns() throws {
        let text = try text(#"""
            {"id":"m","role":"assistant","parts":[{"type":"reasoning","text":"think"},{"type":"text","text":"one"},
             {"type":"tool-weather","input":{"city":"Oslo"},"output":"cold"},{"type":"text","text":"two"},
             {"type":"dynamic-tool","toolName":"search","input":"q"}]}
            """#)
        XCTAssertEqual(text.text, "one\ntwo")
        XCTAssertEqual(text.reasoning, "think")
        XCTAssertEqual(text.tool, "weather search")
        XCTAssertEqual(text.toolIO, "{\"city\":\"Oslo\"}\ncold\nq\n")
        XCTAssertFalse(text.matchesView, "tool parts are left to SQLite's view")
        let plain = try self.text(#"{"id":"m","role":"user","content":"plain"}"#)
        XCTAssertEqual(plain.text, "plain")
        XCTAssertTrue(plain.matchesView)
        let none = try self.text(#"{"parts":[{"type":"text","text":null},{"type":"step-start"}]}"#)
        XCTAssertEqual([none.text, none.reasoning, none.tool, none.toolIO], [nil, nil, nil, nil])
        XCTAssertTrue(none.matchesView)
    }
}
