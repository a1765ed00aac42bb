/// The toolkit's one version: every command's `--version` prints `ps-NAME VERSION`.
public enum ToolVersion {
    /// Bumped once per release, for all commands together.
    public static let number = "0.17.0"

    /// What `--version` prints: the running command's name and the version.
    public static var line: String { "\(Diagnostics.programName) \(number)" }
}
