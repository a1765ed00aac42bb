import PSCore
import PSRender
import PSSend

/// `--archive` (or `"archive": true` in config.json): the message sent and the reply written,
/// kept in the archive once the reply has been written whole (ExchangeArchive). A reply cut
/// short, stopped or interrupted is kept nowhere.
final class ArchivedExchange {
    private var output: CollectingReplyOutput?
    private var exchange: Exchange?

    /// The output the reply is written to, watched; `message` is what was sent.
    func watch(_ output: ReplyOutput, message: JSON, conversationID: String?, model: String?, origin: String) -> ReplyOutput {
        let watched = CollectingReplyOutput(output)
        self.output = watched
        exchange = Exchange(message: message, reply: .null, conversationID: conversationID, model: model, origin: origin,
                            sentAt: Exchange.now())
        return watched
    }

    /// After a send that ended well: the exchange stored, or exit 12 saying why not.
    func keep() throws {
        guard var exchange, let reply = output?.wholeReply else { return }
        exchange.reply = reply
        try ExchangeArchive.store(exchange)
    }

    /// After a send that failed with its reply whole all the same (exit 11, the assistant asks
    /// a question; exit 3, an answer that does not match --schema): stored as the pipeline
    /// would store it; a failure to store is a line on stderr, and the send's own status stays.
    /// After any other failure (cut, stopped, Ctrl-C, a reader gone) nothing is stored.
    func keepAfter(_ error: Error) {
        guard let error = error as? ToolError, [.assistantAsks, .malformedInput].contains(error.status) else { return }
        do {
            try keep()
        } catch let failure as ToolError {
            Diagnostics.error(failure.message)
        } catch {}
    }
}
