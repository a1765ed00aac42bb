import PSArchive

/// Which store `--db` names: a `postgresql://` (or `postgres://`) URL, else an SQLite file.
/// The commands open their archive here and see only ArchiveStore.
public enum ArchiveStores {
    public static func open(_ db: String, create: Bool) throws -> ArchiveStore {
        if PostgresURL.isPostgres(db) { return try PostgresArchive(url: db, create: create) }
        return try SQLiteArchive(path: db, create: create)
    }
}
