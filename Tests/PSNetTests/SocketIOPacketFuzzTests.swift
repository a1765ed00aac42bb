import Foundation
import PSCore
import PSNet
import Testing
import TestSupport

/// A mutational fuzz driver for what the realtime follower reads from a server: Engine.IO
/// polling payloads and the Socket.IO packets in them. Seeds are the corpus in
/// Tests/CommandTests/FuzzCorpus/realtime/ (a crasher found once is kept there); each run makes
/// the same mutants (a fixed seed; PS_FUZZ_SEED and PS_FUZZ_ROUNDS run others, longer) and
/// decodes each as RealtimeConnection does. A mutant must never crash the decoder, and an event
/// it reads must survive being written and read again unchanged.
@Suite struct SocketIOPacketFuzzTests {
    static func seeds() throws -> [[UInt8]] {
        let folder = Executables.packageRoot.appendingPathComponent("Tests/CommandTests/FuzzCorpus/realtime")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map {
            Array(try Data(contentsOf: folder.appendingPathComponent($0)))
        }
    }

    /// Pieces a hostile server would use: separators, type digits, brackets, deep nesting,
    /// escapes, invalid UTF-8, control characters, numbers beyond 64 bits.
    static let tokens: [[UInt8]] = [
        [0x1E], Array("4".utf8), Array("42".utf8), Array("451-".utf8), Array("/ns,".utf8), Array("[".utf8),
        Array("]".utf8), Array("{\"".utf8), Array("\"}".utf8), Array("\\u0000".utf8), Array("\\ud800".utf8),
        [0xFF, 0xFE], [0xC3], [0xE2, 0x80, 0xAE], [0xC2, 0x9B], [0x1B, 0x5B, 0x32, 0x4A], Array("99999999999999999999999".utf8),
        Array("1e400".utf8), Array(",null".utf8), Array(String(repeating: "[", count: 5000).utf8), Array("0".utf8),
    ]

    static func mutate(_ input: [UInt8], _ random: inout SplitMix) -> [UInt8] {
        var bytes = input
        for _ in 0...Int(random.next() % 4) {
            let at = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count + 1))
            switch random.next() % 6 {
            case 0: bytes.insert(contentsOf: tokens[Int(random.next() % UInt64(tokens.count))], at: at)
            case 1: if at < bytes.count { bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(random.next() % 16))) }
            case 2: if at < bytes.count { bytes[at] = UInt8(truncatingIfNeeded: random.next()) }
            case 3: bytes = Array(bytes.prefix(at))
            case 4:
                let end = min(bytes.count, at + Int(random.next() % 32))
                if at < end { bytes.insert(contentsOf: bytes[at..<end], at: at) }
            default: bytes.insert(UInt8(truncatingIfNeeded: random.next() % 128), at: at)
            }
        }
        return bytes
    }

    /// What the client does with a polling body: split it, read each message packet.
    static func decodeAsTheClientDoes(_ body: [UInt8]) -> [(name: String, payload: JSON)] {
        var events: [(name: String, payload: JSON)] = []
        for packet in SocketIOPacket.packets(in: String(decoding: body, as: UTF8.self)) {
            if packet.first == "0" { _ = try? JSON.parse(bytes: Array(packet.dropFirst().utf8)) }
            guard packet.first == "4", let decoded = SocketIOPacket.decode(String(packet.dropFirst())) else { continue }
            _ = decoded.data?["message"]?.stringValue
            if let event = decoded.event, decoded.namespace == "/", decoded.type == "2" { events.append(event) }
        }
        return events
    }

    @Test func mutantsNeverBreakTheDecoder() throws {
        let seeds = try Self.seeds()
        #expect(seeds.count >= 5)
        let environment = ProcessInfo.processInfo.environment
        var random = SplitMix(seed: environment["PS_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x5EED)
        let rounds = environment["PS_FUZZ_ROUNDS"].flatMap { Int($0) } ?? 20_000
        var eventsRead = 0
        for round in 0..<rounds {
            let mutant = Self.mutate(seeds[round % seeds.count], &random)
            for event in Self.decodeAsTheClientDoes(mutant) {
                eventsRead += 1
                let again = SocketIOPacket.decode(String(SocketIOPacket.event(event.name, event.payload).dropFirst()))
                #expect(again?.event?.name == event.name, "round \(round): \(String(decoding: mutant.prefix(200), as: UTF8.self))")
                #expect(again?.event?.payload == event.payload, "round \(round)")
            }
        }
        #expect(eventsRead > rounds / 10, "the mutants should still be read as events often: \(eventsRead)")
    }
}
