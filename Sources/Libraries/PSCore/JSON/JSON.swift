/// A JSON value. Objects keep their keys in insertion order, as JavaScript does, so that what
/// we write matches what the AI SDK would write.
public enum JSON: Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    /// A number no Int64 or Double holds exactly (an integer beyond 64 bits, a number beyond
    /// Double's range), as its literal JSON text: written back byte for byte.
    case number(String)
    case string(String)
    case array([JSON])
    case object(JSONObject)
}

extension JSON: Equatable {
    /// Values compare as JSON does: `1` equals `1.0`, object key order does not matter.
    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.integer(a), .integer(b)): return a == b
        case let (.real(a), .real(b)): return a == b
        case let (.integer(a), .real(b)), let (.real(b), .integer(a)): return Double(a) == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)): return a == b
        default: return false
        }
    }
}

extension JSON {
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }
    public var arrayValue: [JSON]? { if case .array(let a) = self { return a } else { return nil } }
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    public var intValue: Int64? {
        switch self {
        case .integer(let i): return i
        case .real(let d) where d.rounded() == d && abs(d) < 9.2e18: return Int64(d)
        default: return nil
        }
    }

    /// The number as a Double (a number beyond Double's range gives infinity or zero).
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .real(let d): return d
        case .number(let literal): return Double(literal)
        default: return nil
        }
    }

    /// The member `key` when this is an object.
    public subscript(key: String) -> JSON? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        var object = JSONObject()
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
    public init(nilLiteral: ()) { self = .null }
}

/// A JSON object that remembers the order its keys were first set in.
///
/// Its members are kept in that order, and a key is looked up by going through them: an object
/// of a record has a handful of keys, and comparing a few short strings costs a fraction of
/// hashing one (a Dictionary per object was a large part of ps-archive's ingest). An object with
/// many keys gets an index from key to position as well.
public struct JSONObject: Sendable, Sequence {
    private var members: [(key: String, value: JSON)] = []
    /// Each key's position in `members`, once there are `indexedFrom` of them.
    private var positions: [String: Int]?
    private static let indexedFrom = 16

    public init() {}

    public init(_ pairs: [(String, JSON)]) {
        for (key, value) in pairs { self[key] = value }
    }

    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }

    /// Makes room for `count` keys at once (a parser knows how many come).
    public mutating func reserveCapacity(_ count: Int) {
        members.reserveCapacity(count)
    }

    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        return members.firstIndex { $0.key == key }
    }

    /// Setting `nil` removes the key (absent, not `null`).
    public subscript(key: String) -> JSON? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let newValue {
                if let position = position(of: key) {
                    members[position].value = newValue
                } else {
                    members.append((key, newValue))
                    if positions != nil {
                        positions![key] = members.count - 1
                    } else if members.count >= Self.indexedFrom {
                        positions = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1.key, $0) })
                    }
                }
            } else if let position = position(of: key) {
                members.remove(at: position)
                if positions != nil {
                    positions = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1.key, $0) })
                }
            }
        }
    }

    public func makeIterator() -> AnyIterator<(key: String, value: JSON)> {
        var iterator = members.makeIterator()
        return AnyIterator { iterator.next() }
    }
}

extension JSONObject: Equatable {
    /// The same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.members.allSatisfy { member in rhs[member.key] == member.value }
    }
}
