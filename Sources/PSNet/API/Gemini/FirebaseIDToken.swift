import PSCore

/// What a Firebase ID token (a JWT) says of its user, read without verifying it (the server
/// verifies; this is only to show who logged in): `user_id` (or `sub`), `name`, `email`.
enum FirebaseIDToken {
    static func user(_ token: String) -> JSON? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = base64URLDecode(parts[1]),
            let claims = try? JSON.parse(bytes: bytes), claims.objectValue != nil
        else { return nil }
        var user = JSONObject()
        user["id"] = claims["user_id"]?.stringValue.map(JSON.string) ?? claims["sub"]?.stringValue.map(JSON.string)
        user["name"] = claims["name"]?.stringValue.map(JSON.string)
        user["email"] = claims["email"]?.stringValue.map(JSON.string)
        return user.isEmpty ? nil : .object(user)
    }

    static func base64URLDecode(_ text: Substring) -> [UInt8]? {
        var bits = 0, count = 0
        var out: [UInt8] = []
        for byte in text.utf8 {
            let value: Int
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = Int(byte) - 65
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = Int(byte) - 97 + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(byte) - 48 + 52
            case UInt8(ascii: "-"), UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "_"), UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="): continue
            default: return nil
            }
            bits = (bits << 6) | value
            count += 6
            if count >= 8 {
                count -= 8
                out.append(UInt8((bits >> count) & 0xFF))
            }
        }
        return out
    }
}
