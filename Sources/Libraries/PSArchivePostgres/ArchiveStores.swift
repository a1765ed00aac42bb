import PSArchive

extension ArchiveStores {
    /// The store `db` names, in this process (the PostgreSQL one through PostgresNIO).
    public static func open(_ db: String, create: Bool) throws -> ArchiveStore {
        if isPostgres(db) { return try PostgresArchive(url: db, create: create) }
        return try SQLiteArchive(path: db, create: create)
    }
}
