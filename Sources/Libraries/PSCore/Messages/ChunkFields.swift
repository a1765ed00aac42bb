/// A chunk the reducer cannot apply: not a chunk at all, a field of the wrong type, or a
/// reference to something the stream never opened. The AI SDK throws on all of these and stops.
public struct MalformedChunk: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Typed access to a chunk's fields with the checks the SDK's chunk schema makes (zod): required
/// fields present with the right type; optional ones absent or of the right type (`null` is not
/// absent).
struct ChunkFields {
    let object: JSONObject
    let type: String

    init(_ object: JSONObject, type: String) {
        self.object = object
        self.type = type
    }

    func string(_ key: String) throws -> String {
        guard case .string(let value)? = object[key] else { throw wrongType(key, "a string") }
        return value
    }

    func optionalString(_ key: String) throws -> String? {
        guard let value = object[key] else { return nil }
        guard case .string(let text) = value else { throw wrongType(key, "a string") }
        return text
    }

    func bool(_ key: String) throws -> Bool {
        guard case .bool(let value)? = object[key] else { throw wrongType(key, "true or false") }
        return value
    }

    func optionalBool(_ key: String) throws -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let flag) = value else { throw wrongType(key, "true or false") }
        return flag
    }

    /// `providerMetadata`: an object of objects (provider name → its values).
    func providerMetadata(_ key: String = "providerMetadata") throws -> JSON? {
        guard let value = object[key] else { return nil }
        guard case .object(let providers) = value,
            providers.allSatisfy({ if case .object = $0.value { return true } else { return false } })
        else { throw wrongType(key, "an object of objects") }
        return value
    }

    /// `toolMetadata`: an object.
    func optionalObject(_ key: String) throws -> JSON? {
        guard let value = object[key] else { return nil }
        guard case .object = value else { throw wrongType(key, "an object") }
        return value
    }

    private func wrongType(_ key: String, _ expected: String) -> MalformedChunk {
        if object[key] == nil { return MalformedChunk("\(type) chunk without \"\(key)\"") }
        return MalformedChunk("\(type) chunk whose \"\(key)\" is not \(expected)")
    }
}
