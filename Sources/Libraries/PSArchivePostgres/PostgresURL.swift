import PSArchive
import PSCore

/// A `postgresql://` (or `postgres://`) URL as libpq takes it:
/// `postgresql://[USER[:PASSWORD]@][HOST][:PORT][/DATABASE][?host=/SOCKET/DIR&sslmode=…]`.
/// A HOST or host= starting with `/` is a folder holding the server's unix socket. The
/// password stays here: `description` (what messages show) leaves it out.
public struct PostgresURL: Sendable, CustomStringConvertible {
    public var user: String
    public var password: String?
    /// A TCP host, or a socket folder (starts with "/").
    public var host: String
    public var port: Int
    public var database: String?
    public var requireTLS: Bool

    public init(_ text: String) throws {
        guard ArchiveStores.isPostgres(text), let colon = text.firstIndex(of: ":") else {
            throw Self.invalid("it does not start with postgresql://")
        }
        var rest = text[colon...].dropFirst(3)
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        user = "postgres"
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                user = try Self.decoded(userInfo[..<colon])
                password = try Self.decoded(userInfo[userInfo.index(after: colon)...])
            } else {
                user = try Self.decoded(userInfo)
            }
        }
        port = 5432
        host = "localhost"
        if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") {
            guard let number = Int(rest[rest.index(after: colon)...]), (1...65535).contains(number) else {
                throw Self.invalid("its port is not a number from 1 to 65535")
            }
            port = number
            rest = rest[..<colon]
        }
        if !rest.isEmpty { host = try Self.decoded(rest.trimmingCharacters(in: "[]")) }
        database = try path.isEmpty ? nil : Self.decoded(path)
        requireTLS = false
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            let value = try parts.count == 2 ? Self.decoded(Substring(parts[1])) : ""
            switch parts[0] {
            case "host": host = value
            case "port":
                guard let number = Int(value), (1...65535).contains(number) else { throw Self.invalid("its port is not a number") }
                port = number
            case "user": user = value
            case "dbname": database = value
            case "password": password = value
            case "sslmode":
                guard ["disable", "prefer", "allow", "require", "verify-ca", "verify-full"].contains(value) else {
                    throw Self.invalid("sslmode \(value) is not one libpq knows")
                }
                requireTLS = ["require", "verify-ca", "verify-full"].contains(value)
            default: throw Self.invalid("the parameter \(parts[0]) is not one ps-archive takes (host, port, user, dbname, sslmode)")
            }
        }
        if let password, password.isEmpty { self.password = nil }
    }

    /// The URL without its password: what error messages show.
    public var description: String {
        let place = host.hasPrefix("/") ? "?host=" + host : host + ":" + String(port)
        let hostPart = host.hasPrefix("/") ? "" : place
        let path = "/" + (database ?? user)
        return "postgresql://" + user + "@" + hostPart + path + (host.hasPrefix("/") ? place : "")
    }

    static func invalid(_ why: String) -> ToolError {
        ToolError(.usage, "--db: not a PostgreSQL URL (\(why))")
    }

    static func decoded(_ text: Substring) throws -> String {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                guard first < utf8.endIndex, utf8.index(after: first) < utf8.endIndex,
                      let value = UInt8(String(decoding: utf8[first...utf8.index(after: first)], as: UTF8.self), radix: 16)
                else { throw invalid("a % not followed by two hex digits") }
                bytes.append(value)
                index = utf8.index(first, offsetBy: 2)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var result = self
        while let first = result.first, set.contains(first) { result = result.dropFirst() }
        while let last = result.last, set.contains(last) { result = result.dropLast() }
        return result
    }
}
