import ArgumentParser
import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// The values the shell completions offer from the user's own data: the generated bash, zsh and
/// fish scripts call the command back (`ps-send ---completion -- --profile …`), and these read
/// the local config and state only. A completion runs at every TAB: never a network call.
public enum LocalCompletions {
    /// Profiles of `$XDG_CONFIG_HOME/ps-tools/config.json`, and those with a stored credential.
    public static let profiles = CompletionKind.custom { _, _, prefix in
        profileNames(environment: Environment.current).filter { $0.hasPrefix(prefix) }
    }

    /// Conversations remembered here: each profile's current conversation
    /// (`$XDG_STATE_HOME/ps-tools/current-conversation/`) and the conversations the client keeps
    /// (`$XDG_DATA_HOME/ps-tools/conversations/<profile>/`).
    public static let conversations = CompletionKind.custom { _, _, prefix in
        conversationIDs(environment: Environment.current).filter { $0.hasPrefix(prefix) }
    }

    static func profileNames(environment: [String: String]) -> [String] {
        let paths = ConfigPaths(environment: environment)
        var names = ((try? ConfigFile.load(paths.config))?.profiles ?? []).map(\.name)
        for entry in (try? CredentialStore.load(paths.credentials))?.entries ?? [] where !names.contains(entry.profile) {
            names.append(entry.profile)
        }
        return names.sorted()
    }

    static func conversationIDs(environment: [String: String]) -> [String] {
        var ids: Set<String> = []
        let state = CurrentConversation.folder(environment: environment)
        for file in entries(of: state) {
            if let id = CurrentConversation(path: state + "/" + file).read() { ids.insert(id) }
        }
        let kept = LocalConversations.folder(environment: environment)
        for profile in entries(of: kept) {
            for file in entries(of: kept + "/" + profile) where file.hasSuffix(".ndjson") {
                ids.insert(String(file.dropLast(".ndjson".count)))
            }
        }
        return ids.sorted()
    }

    /// The names in a folder (none when it cannot be read).
    static func entries(of folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names
    }
}
