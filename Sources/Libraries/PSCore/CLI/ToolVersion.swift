import CToolVersion

/// The toolkit's one version: every command's `--version` prints `ps-NAME VERSION`.
public enum ToolVersion {
    /// The file VERSION at the package's root, read when the package is built.
    public static let number = String(cString: ps_tools_version())

    /// What `--version` prints: the running command's name and the version.
    public static var line: String { "\(Diagnostics.programName) \(number)" }
}
