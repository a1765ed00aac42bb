import ArgumentParser
import PSArchive
import PSArchiveCommand
import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// The options of a search in the archive ps-archive keeps.
struct ArchiveOptions: ParsableArguments {
    @Flag(name: .long, help: "Search the archive (ps-archive's). It is the default when no server, profile or file is named and it exists.")
    var archive = false

    @Option(name: .long, help: ArgumentHelp("The archive file (implies --archive; default: $XDG_DATA_HOME/ps-tools/archive.sqlite).",
                                            valueName: "file"), completion: .file())
    var db: String?

    @OptionGroup var filters: ArchiveFilters

    /// Whether the archive was asked for by name.
    var named: Bool { archive || db != nil }

    /// The archive to search: the one named, else the default one when it exists and nothing
    /// else (a server, a profile, a file, standard input that is a pipe) was named; else nil.
    func path(serverNamed: Bool, file: String?) -> String? {
        if let db { return db }
        if archive { return SQLiteArchive.defaultPath() ?? "archive.sqlite" }
        let environment = getenv("PAGESPACE_API_URL") != nil || getenv("PS_PROFILE") != nil
        guard !serverNamed, !environment, file == nil, !Self.standardInputIsData,
              let path = SQLiteArchive.defaultPath(), access(path, R_OK) == 0 else { return nil }
        return path
    }

    private static var standardInputIsData: Bool {
        var status = stat()
        guard fstat(0, &status) == 0 else { return false }
        let type = status.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFREG
    }
}
