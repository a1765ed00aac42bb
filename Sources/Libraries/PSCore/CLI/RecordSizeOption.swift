import ArgumentParser

/// `--max-record-size`, shared by every command that reads a stream: the cap on one line, event
/// or record (InputLimits). `apply()` sets it for the run before anything is read.
public struct RecordSizeOption: ParsableArguments {
    @Option(name: .customLong("max-record-size"), help: ArgumentHelp(
        "The longest line, event or record held, in MiB. Default \(InputLimits.defaultMiB); also PS_MAX_RECORD_MIB.",
        valueName: "MiB"))
    public var maxRecordSize: Int?

    public init() {}

    public func validate() throws {
        if let maxRecordSize, maxRecordSize <= 0 {
            throw ValidationError("--max-record-size must be a positive number of MiB")
        }
    }

    /// Makes the flag (else PS_MAX_RECORD_MIB, else the default) the run's InputLimits.
    public func apply() {
        if let maxRecordSize { InputLimits.current = InputLimits(mebibytes: maxRecordSize) }
    }
}
