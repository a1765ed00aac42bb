#if canImport(Glibc)
import Glibc
#endif

/// An internal helper executable (ps-mcp): not a command, it lies beside the running executable
/// (the build folder), else in ../lib/ps-tools/ relative to it (`make install`).
public enum InternalHelper {
    /// The folders a helper is looked for in, in order: the running executable's, then
    /// ../lib/ps-tools beside it; empty when /proc/self/exe cannot be read.
    public static func folders() -> [String] {
        guard let own = executableFolder() else { return [] }
        let parent = own.lastIndex(of: "/").map { String(own[..<$0]) } ?? ""
        return [own, parent + "/lib/ps-tools"]
    }

    /// The path of the helper `name`, nil when it is in none of the folders.
    public static func path(_ name: String) -> String? {
        folders().map { $0 + "/" + name }.first { access($0, X_OK) == 0 }
    }

    /// The folder of the running executable, symbolic links resolved.
    static func executableFolder() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }
}
