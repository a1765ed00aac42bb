// ps-archive and ps-search --archive on an archive in PostgreSQL.
PsArchivePostgres.runAsTool()
