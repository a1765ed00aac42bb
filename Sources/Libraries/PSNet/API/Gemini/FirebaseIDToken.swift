import PSCore

/// What a Firebase ID token (a JWT) says of its user, read without verifying it (the server
/// verifies; this is only to show who logged in): `user_id` (or `sub`), `name`, `email`.
enum FirebaseIDToken {
    static func user(_ token: String) -> JSON? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64.decodeURL(parts[1]),
            let claims = try? JSON.parse(bytes: bytes), claims.objectValue != nil
        else { return nil }
        var user = JSONObject()
        user["id"] = claims["user_id"]?.stringValue.map(JSON.string) ?? claims["sub"]?.stringValue.map(JSON.string)
        user["name"] = claims["name"]?.stringValue.map(JSON.string)
        user["email"] = claims["email"]?.stringValue.map(JSON.string)
        return user.isEmpty ? nil : .object(user)
    }
}
