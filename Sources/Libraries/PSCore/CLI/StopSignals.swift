#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C and SIGTERM, for a command that stops its own work cleanly rather than dying: the
/// handler (which may only set a flag or call an async-signal-safe function) runs for both, and
/// both are unblocked, since a parent may have started the command with them blocked (then
/// Ctrl-C would never arrive).
public enum StopSignals {
    public static func handle(with handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &signals, nil)
    }
}
