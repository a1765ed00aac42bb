/// Where a record came from, written by ps-history as its "origin" key, so that an archive of
/// several servers (and of several profiles of one server, whose client-kept conversations
/// may share ids) keys each message by it: `scheme://PROFILE@host[:port]`, the server's origin
/// (scheme and host in lower case, the port only when it is not the scheme's default) with the
/// profile in use as its user part (`default` when none was named), percent-encoded where it is
/// not a letter, digit, `-`, `.`, `_` or `~`.
extension Session {
    public var recordOrigin: String {
        guard let origin = Origin(url: server) else { return server }
        let port = Origin.defaultPorts[origin.scheme] == origin.port ? "" : ":\(origin.port)"
        return origin.scheme + "://" + Self.percentEncoded(profileName) + "@" + origin.host + port
    }

    static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(hex[Int(byte >> 4)])
                result.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return result
    }
}
