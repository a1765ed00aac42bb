/// Where ps-tools keeps its configuration: `$XDG_CONFIG_HOME/ps-tools/` (an absolute path, as
/// the XDG spec asks), else `~/.config/ps-tools/`.
public struct ConfigPaths: Sendable {
    public let directory: String

    public init(environment: [String: String]) {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            directory = xdg + "/ps-tools"
        } else {
            directory = (environment["HOME"] ?? "") + "/.config/ps-tools"
        }
    }

    /// Profiles: servers, API kinds, users. Nothing secret.
    public var config: String { directory + "/config.json" }
    /// Tokens, mode 0600.
    public var credentials: String { directory + "/credentials.json" }
}
