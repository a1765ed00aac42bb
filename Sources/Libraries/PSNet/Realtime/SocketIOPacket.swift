import PSCore

/// The wire forms of Engine.IO v4 and Socket.IO v5 packets over HTTP long-polling, as
/// socket.io's parsers write them. An Engine.IO packet is a type digit and its data (`0` open,
/// `1` close, `2` ping, `3` pong, `4` message, `6` noop); a polling payload joins packets with
/// the record separator 0x1E. A Socket.IO packet rides in a message (`4`) as its own type digit
/// (`0` connect, `1` disconnect, `2` event, `4` connect error), an optional `/namespace,`, an
/// optional ack id, then JSON.
public enum SocketIOPacket {
    public static let separator: Character = "\u{1E}"

    public static func payload(_ packets: [String]) -> String { packets.joined(separator: String(separator)) }

    public static func packets(in payload: String) -> [String] {
        payload.split(separator: separator, omittingEmptySubsequences: true).map(String.init)
    }

    /// `40{…}`: connect to the main namespace with the handshake's `auth` object.
    public static func connect(auth: JSON) -> String { "40" + auth.serialized() }

    /// `42["event",payload]`: an event on the main namespace.
    public static func event(_ name: String, _ payload: JSON) -> String {
        "42" + JSON.array([.string(name), payload]).serialized()
    }

    /// `40{"sid":…}`: the namespace connection was accepted.
    public static func connected(socketID: String) -> String {
        "40" + JSON.object(JSONObject([("sid", .string(socketID))])).serialized()
    }

    /// `44{"message":…}`: a middleware refused the connection (`next(new Error(message))`).
    public static func connectError(_ message: String, namespace: String = "/") -> String {
        let prefix = namespace == "/" ? "" : namespace + ","
        return "44" + prefix + JSON.object(JSONObject([("message", .string(message))])).serialized()
    }

    /// A Socket.IO packet read from the data of an Engine.IO message.
    public struct Decoded: Sendable {
        public let type: Character
        public let namespace: String
        /// The JSON after the namespace and ack id, if any.
        public let data: JSON?

        /// An event's name and first argument (a binary event's too, its attachments left out).
        public var event: (name: String, payload: JSON)? {
            guard type == "2" || type == "5", let array = data?.arrayValue, let name = array.first?.stringValue else { return nil }
            return (name, array.count > 1 ? array[1] : .null)
        }
    }

    /// Reads a Socket.IO packet (the text after an Engine.IO message's `4`); nil when it is
    /// not one.
    public static func decode(_ text: String) -> Decoded? {
        guard let type = text.first, type.isASCII, type.isNumber else { return nil }
        var rest = Substring(text.dropFirst())
        // Binary packets (5, 6) carry an attachment count first: "51-…".
        if type == "5" || type == "6", let dash = rest.firstIndex(of: "-") { rest = rest[rest.index(after: dash)...] }
        var namespace = "/"
        if rest.first == "/" {
            let end = rest.firstIndex(of: ",") ?? rest.endIndex
            namespace = String(rest[..<end])
            rest = end == rest.endIndex ? "" : rest[rest.index(after: end)...]
        }
        rest = rest.drop { $0.isASCII && $0.isNumber }  // an ack id
        guard !rest.isEmpty else { return Decoded(type: type, namespace: namespace, data: nil) }
        guard let data = try? JSON.parse(bytes: Array(rest.utf8)) else { return nil }
        return Decoded(type: type, namespace: namespace, data: data)
    }
}
