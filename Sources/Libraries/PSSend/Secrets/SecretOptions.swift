import ArgumentParser

/// `--redact` and `--allow-secrets`: what ps-send and ps-batch do with a secret found in what
/// they would send (SecretCheck).
public struct SecretOptions: ParsableArguments {
    @Flag(name: .long, help: "Send with each secret found replaced. A secret becomes [REDACTED:kind].")
    public var redact = false

    @Flag(name: .long, help: "Send secrets found as they are. By default a text holding one is refused.")
    public var allowSecrets = false

    public init() {}

    public func validate() throws {
        if redact && allowSecrets { throw ValidationError("give --redact or --allow-secrets, not both") }
    }

    /// The check these options ask for.
    public var check: SecretCheck { SecretCheck(mode: allowSecrets ? .allow : redact ? .redact : .refuse) }
}
