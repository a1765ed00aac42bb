import PSArchiveCommand

// SQLite archives here; a postgresql:// one is handed to ps-archive-postgres (PsArchive.run).
PsArchive.runAsTool()
