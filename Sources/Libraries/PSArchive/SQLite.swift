#if canImport(Glibc)
import Glibc
#endif
import CSQLite
import PSCore

/// A thin wrapper over SQLite's C API: one connection, prepared statements with bound values,
/// every failure a ToolError (exit 1) naming the database.
final class SQLiteDatabase {
    private(set) var handle: OpaquePointer?
    let path: String

    init(path: String, readOnly: Bool = false) throws {
        self.path = path
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let status = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            handle = nil
            throw ToolError(.failure, "\(path): \(message)")
        }
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit { sqlite3_close_v2(handle) }

    /// SQLite answers SQLITE_BUSY without waiting for the busy timeout in a few moments of WAL
    /// bookkeeping: while another connection, the last one, closes the file and cleans up its
    /// WAL, or recovers it after a crash (sqlite.org/wal.html, "Sometimes Queries Return
    /// SQLITE_BUSY In WAL Mode"); two cron runs that start and end together meet it. Outside a
    /// transaction nothing was done, so `attempt` is tried again, for up to 30 seconds.
    func retryingBusy(_ attempt: () -> Int32) -> Int32 {
        var status = attempt()
        let deadline = MonotonicClock.now + 30
        while status & 0xFF == SQLITE_BUSY && sqlite3_get_autocommit(handle) != 0 && MonotonicClock.now < deadline
                && Self.interrupted == 0 {
            usleep(20_000)
            status = attempt()
        }
        return status
    }

    /// The connection a SIGINT or SIGTERM interrupts, and whether one came (see `stopOnSignals`).
    nonisolated(unsafe) private static var interruptible: OpaquePointer?
    nonisolated(unsafe) static var interrupted: sig_atomic_t = 0

    /// From now on SIGINT and SIGTERM stop this connection's work: the handler interrupts the
    /// running statement (sqlite3_interrupt, which SQLite's own shell calls from its handler)
    /// and marks the connection interrupted, for the next statement to see; either way the
    /// command ends with exit 130.
    func stopOnSignals() {
        Self.interrupted = 0  // both read here first, not for the first time in the handler
        Self.interruptible = handle
        StopSignals.handle { _ in
            SQLiteDatabase.interrupted = 1
            if let handle = SQLiteDatabase.interruptible { sqlite3_interrupt(handle) }
        }
    }

    /// Runs statements that take no values and give no rows.
    func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let status = retryingBusy {
            sqlite3_free(error)
            error = nil
            return sqlite3_exec(handle, sql, nil, nil, &error)
        }
        guard status == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? lastError
            sqlite3_free(error)
            throw ToolError(.failure, "\(path): \(message)")
        }
    }

    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
              let statement
        else { throw ToolError(.failure, "\(path): \(lastError)") }
        return SQLiteStatement(statement, database: self)
    }

    var lastError: String { String(cString: sqlite3_errmsg(handle)) }

    /// A failure of this database (exit 1), naming it.
    func failure(_ message: String) -> ToolError { ToolError(.failure, "\(path): \(message)") }

    private static let fts5PointerType: StaticString = "fts5_api_ptr"

    /// FTS5's API, for adding auxiliary functions: `SELECT fts5(?1)` writes it through the
    /// pointer bound to ?1 (sqlite.org/fts5.html, "Extending FTS5").
    func fts5API() throws -> UnsafeMutablePointer<fts5_api>? {
        if let fts5 { return fts5 }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "SELECT fts5(?1)", -1, &statement, nil) == SQLITE_OK else { throw failure(lastError) }
        defer { sqlite3_finalize(statement) }
        var api: UnsafeMutablePointer<fts5_api>?
        let status = withUnsafeMutablePointer(to: &api) { pointer in
            let type = UnsafeRawPointer(Self.fts5PointerType.utf8Start).assumingMemoryBound(to: CChar.self)
            sqlite3_bind_pointer(statement, 1, pointer, type, nil)
            return sqlite3_step(statement)
        }
        guard status == SQLITE_ROW || status == SQLITE_DONE else { throw failure(lastError) }
        fts5 = api
        return api
    }

    /// FTS5's API once read: it lives as long as the connection.
    private var fts5: UnsafeMutablePointer<fts5_api>?

    /// Whether the last failure was an error in the SQL or its values (a bad full-text query),
    /// rather than of the file (I/O, locked, corrupt).
    var lastFailureWasInTheQuery: Bool { sqlite3_errcode(handle) & 0xFF == SQLITE_ERROR }

    /// Whether the last failure was a file that is not an SQLite database.
    var lastFailureWasNotADatabase: Bool { sqlite3_errcode(handle) & 0xFF == SQLITE_NOTADB }

    /// Whether a transaction is open.
    var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }
    var lastInsertRowID: Int { Int(sqlite3_last_insert_rowid(handle)) }
}

/// One prepared statement: bind values by position (1-based), step through the rows, reset.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private unowned let database: SQLiteDatabase
    private var rowsGiven = false

    init(_ statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit { sqlite3_finalize(statement) }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    func bind(_ index: Int32, _ value: String?) {
        guard var value else { sqlite3_bind_null(statement, index); return }
        value.withUTF8 { bind(index, bytes: UnsafeRawBufferPointer($0)) }
    }

    func bind(_ index: Int32, _ value: Int?) {
        guard let value else { sqlite3_bind_null(statement, index); return }
        sqlite3_bind_int64(statement, index, Int64(value))
    }

    /// Binds text given as bytes, copied by SQLite.
    func bind(_ index: Int32, bytes: UnsafeRawBufferPointer) {
        if let pointer = bytes.baseAddress?.assumingMemoryBound(to: CChar.self) {
            sqlite3_bind_text(statement, index, pointer, Int32(bytes.count), Self.transient)
        } else {
            sqlite3_bind_text(statement, index, "", 0, Self.transient)
        }
    }

    /// Binds a blob, copied by SQLite.
    func bind(_ index: Int32, blob: [UInt8]) {
        blob.withUnsafeBytes { bytes in
            sqlite3_bind_blob(statement, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), Self.transient)
        }
    }

    /// Runs the statement to its end (for statements without rows).
    func run() throws {
        defer { reset() }
        while try step() {}
    }

    /// The next row: true while there is one.
    func step() throws -> Bool {
        if SQLiteDatabase.interrupted != 0 {
            reset()
            throw ToolError(.interrupted, "interrupted")
        }
        // Retried only before its first row: a retry after an error starts the statement again.
        let status = rowsGiven ? sqlite3_step(statement) : database.retryingBusy { sqlite3_step(statement) }
        switch status {
        case SQLITE_ROW:
            rowsGiven = true
            return true
        case SQLITE_DONE: return false
        case let status where status & 0xFF == SQLITE_INTERRUPT:
            reset()
            throw ToolError(.interrupted, "interrupted")
        default:
            let message = database.lastError
            reset()
            throw ToolError(.failure, "\(database.path): \(message)")
        }
    }

    func reset() {
        rowsGiven = false
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    func text(_ column: Int32) -> String? {
        guard sqlite3_column_type(statement, column) != SQLITE_NULL, let bytes = sqlite3_column_text(statement, column)
        else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column's bytes, valid until the next step or reset.
    func bytes(_ column: Int32) -> UnsafeRawBufferPointer {
        let pointer = sqlite3_column_blob(statement, column)
        return UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(statement, column)))
    }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
}
