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
