import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// Small files read whole and written atomically: a temporary file in the same folder, created
/// with its final mode from the start (a secret is never readable by others, not even for a
/// moment), synced, then renamed over the old one. A reader sees the old or the new file.
/// A symbolic link (a config.json kept in a dotfiles repository) is written through: the new
/// file replaces the link's target, beside it, and the link stays.
public enum SecureFile {
    /// The file's bytes, or nil when it does not exist.
    public static func read(_ path: String) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw ToolError(.failure, "cannot read \(path): \(lastError())")
        }
        defer { close(fd) }
        return try readAll(fd, path: path)
    }

    /// Like `read`, but refuses a file that someone other than its owner may read or write, or
    /// that belongs to another user: a secret there is no longer only ours.
    public static func readPrivate(_ path: String) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP {
                throw ToolError(.authenticationNeeded,
                    "refusing to use \(path): it is a symbolic link; a file of secrets must be a plain file of its own "
                        + "(replace the link with the file it points to, mode 600)")
            }
            throw ToolError(.failure, "cannot read \(path): \(lastError())")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ToolError(.failure, "cannot inspect \(path): \(lastError())") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            let kind = info.st_mode & S_IFMT == S_IFDIR ? "a directory" : "not a plain file"
            throw ToolError(.authenticationNeeded, "refusing to use \(path): it is \(kind); move it away")
        }
        if info.st_uid != geteuid() {
            throw ToolError(.authenticationNeeded, "refusing to use \(path): it belongs to another user")
        }
        let mode = info.st_mode & 0o777
        if mode & 0o077 != 0 {
            throw ToolError(
                .authenticationNeeded,
                "refusing to use \(path): others may read it (mode \(String(mode, radix: 8))); fix it with: chmod 600 \(path)")
        }
        return try readAll(fd, path: path)
    }

    /// Replaces the file atomically; its folder is created (mode 0700) when missing.
    public static func write(_ bytes: [UInt8], to given: String, mode: mode_t = 0o600) throws {
        let path = try target(of: given)
        try makeDirectory(parent(of: path))
        let temporary = "\(path).tmp-\(getpid())"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw ToolError(.failure, "cannot write \(temporary): \(lastError())") }
        var ok = fchmod(fd, mode) == 0  // the umask may have taken bits we asked for
        ok = ok && FileDescriptorOutput.writeAll(fd: fd, bytes) == 0
        ok = ok && fsync(fd) == 0
        let failure = ok ? "" : lastError()
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            let reason = ok ? lastError() : failure
            unlink(temporary)
            throw ToolError(.failure, "cannot write \(path): \(reason)")
        }
    }

    /// Where writing `path` goes: the path itself, or the file a symbolic link there points to.
    static func target(of path: String) throws -> String {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return path }
        guard let resolved = realpath(path, nil) else {
            throw ToolError(.failure, "cannot write \(path): it is a symbolic link to nothing that can be written (\(lastError()))")
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    public static func remove(_ path: String) throws {
        if unlink(path) != 0 && errno != ENOENT { throw ToolError(.failure, "cannot remove \(path): \(lastError())") }
    }

    /// Creates a folder and its parents (new ones with mode 0700).
    public static func makeDirectory(_ path: String) throws {
        guard !path.isEmpty, path != "/" else { return }
        var info = stat()
        if stat(path, &info) == 0 { return }
        try makeDirectory(parent(of: path))
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw ToolError(.failure, "cannot create \(path): \(lastError())")
        }
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func readAll(_ fd: Int32, path: String) throws -> [UInt8] {
        var result: [UInt8] = []
        try ChunkReader(fd: fd, name: path, chunkSize: 16 * 1024).forEachChunk { result.append(contentsOf: $0) }
        return result
    }

    static func lastError() -> String { String(cString: strerror(errno)) }
}
