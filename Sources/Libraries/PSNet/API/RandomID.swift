/// Client-made ids: message ids (like the AI SDK's `generateId`) and the per-run browser
/// session id the current API wants (`[A-Za-z0-9_-]{1,64}`).
public enum RandomID {
    public static let alphanumeric = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    public static let urlSafe = alphanumeric + Array("_-".utf8)

    public static func make(length: Int = 16, alphabet: [UInt8] = alphanumeric) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func messageID() -> String { make(length: 16) }

    /// A new conversation id in cuid2's shape (`^[a-z][a-z0-9]{1,31}$`, 24 characters): the
    /// only shape the current server accepts for a conversation it has not seen
    /// (apps/web/src/lib/ai/chat-pipeline/page-chat-turn.ts, isCuid).
    public static func conversationID() -> String {
        make(length: 1, alphabet: lowercase) + make(length: 23, alphabet: lowercase + digits)
    }

    static let lowercase = Array("abcdefghijklmnopqrstuvwxyz".utf8)
    static let digits = Array("0123456789".utf8)

    public static func browserSessionID() -> String { "ps-tools-" + make(length: 21, alphabet: urlSafe) }
}
