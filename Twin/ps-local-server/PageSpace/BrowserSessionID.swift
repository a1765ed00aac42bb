import HTTPTypes
import Hummingbird

/// The current server's send routes check `X-Browser-Session-Id` first, before
/// authentication, with the same answers on both
/// (apps/web/src/lib/ai/core/browser-session-id-validation.ts).
enum BrowserSessionID {
    static func require(_ request: Request) throws {
        let value = request.headers[HTTPField.Name("X-Browser-Session-Id")!] ?? ""
        guard !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw Refusal.badRequest("X-Browser-Session-Id header is required")
        }
        guard value.utf16.count <= 64 else {
            throw Refusal.badRequest("X-Browser-Session-Id header exceeds maximum length")
        }
        let allowed = value.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-")
        }
        guard allowed else { throw Refusal.badRequest("X-Browser-Session-Id header contains invalid characters") }
    }
}
