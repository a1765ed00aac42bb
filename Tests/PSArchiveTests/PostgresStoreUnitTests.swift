import PSArchive
import PSArchivePostgres
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

    func testAMessagesTextIsItsPartsInFourColumns() {
        let text = MessageText(record: #"""
            {"id":"m","role":"assistant","parts":[{"type":"reasoning","text":"think"},{"type":"text","text":"one"},
             {"type":"tool-weather","input":{"city":"Oslo"},"output":"cold"},{"type":"text","text":"two"},
             {"type":"dynamic-tool","toolName":"search","input":"q"}]}
            """#)
        XCTAssertEqual(text.text, "one\ntwo")
        XCTAssertEqual(text.reasoning, "think")
        XCTAssertEqual(text.tool, "weather search")
        XCTAssertEqual(text.toolIO, "{\"city\":\"Oslo\"}\ncold\nq\n")
        XCTAssertEqual(MessageText(record: #"{"id":"m","role":"user","content":"plain"}"#).text, "plain")
        XCTAssertEqual(MessageText(record: "not json"), MessageText(record: "{}"))
    }
}
