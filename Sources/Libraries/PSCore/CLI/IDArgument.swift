import ArgumentParser

/// The check every option and argument naming an id goes through (`transform:
/// IDArgument.nonEmpty`): an empty one, from a `$(...)` that found nothing, is a usage error
/// naming the option (exit 2) before anything is sent to a server.
public enum IDArgument {
    public static func nonEmpty(_ text: String) throws -> String {
        guard !text.isEmpty else { throw ValidationError("an empty id (did a $(...) find nothing?)") }
        return text
    }
}
