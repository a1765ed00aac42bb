import Foundation
import Synchronization

/// Makes the ids the server hands out. Message ids are `msg_` and a zero-padded counter, so
/// they sort in creation order as the contract promises; the rest are random.
final class Identifiers: Sendable {
    private let nextMessage: Mutex<Int>

    init(firstMessageNumber: Int) { nextMessage = Mutex(firstMessageNumber) }

    static func messageID(_ number: Int) -> String {
        let digits = String(number)
        return "msg_" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    func nextMessageID() -> String {
        Identifiers.messageID(nextMessage.withLock { value in
            defer { value += 1 }
            return value
        })
    }

    /// A cuid2-shaped id: a letter, then 23 letters or digits.
    static func cuid() -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8), alphabet = letters + Array("0123456789".utf8)
        return String(decoding: [letters.randomElement()!] + (0..<23).map { _ in alphabet.randomElement()! }, as: UTF8.self)
    }

    /// `isCuid` of @paralleldrive/cuid2: `^[a-z][0-9a-z]+$`, 2 to 32 characters.
    static func isCuid(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard (2...32).contains(bytes.count), let first = bytes.first, (97...122).contains(first) else { return false }
        return bytes.allSatisfy { (97...122).contains($0) || (48...57).contains($0) }
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255) }
    }

    static func random(prefix: String, bytes: Int = 12) -> String {
        prefix + randomHex(bytes)
    }

    static func randomHex(_ count: Int) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(count * 2)
        for _ in 0..<count {
            let byte = UInt8.random(in: 0...255)
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Base64url without padding, as JWT segments are written.
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
