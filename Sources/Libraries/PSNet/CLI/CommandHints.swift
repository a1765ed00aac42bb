import PSCore

/// The advice that ends an error line, worded for the command that prints it: a hint names
/// only flags and commands the user can act on from there.
public enum CommandHints {
    /// After "there is no conversation X": where to find one, and how to start one in
    /// ps-send, the one command with --new-conversation.
    public static var unknownConversation: String {
        Diagnostics.programName == "ps-send"
            ? "(ps-history --list shows them; --new-conversation starts one)"
            : "(ps-history --list shows them)"
    }

    /// After a refused credential. `ps-auth login` sets it to its own words: the credential
    /// being refused there is the one just given, and logging in is what the user is doing.
    public static var refusedCredential = "log in with `ps-auth login` or set PAGESPACE_TOKEN"

    /// What `ps-auth login` says instead.
    public static let refusedAtLogin = "the server refused the credential given: check that it is whole and "
        + "meant for this server (--server) and API (--api); nothing was stored"
}
