import PSArchive
import PSArchiveCommand
import PSArchivePostgres
import PSCore

// Run under its own name by ps-search (--serve-search) or by hand: the helper's own command.
// Run by ps-archive, which replaced itself with it (the user's argv, so argv[0] names
// ps-archive or whatever the user called it): ps-archive's command, with PostgreSQL here.
if Diagnostics.programName == PostgresHelper.name {
    HelperCommand.runAsTool()
} else {
    PsArchive.postgres = .inProcess(ArchiveStores.open)
    PsArchive.runAsTool()
}
